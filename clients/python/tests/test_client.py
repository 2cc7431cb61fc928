"""quiver_client against a real `quiver rpc`. QUIVER_COMMAND (a JSON list) names the program."""

import json
import os
import shutil
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from quiver_client import ExternalTool, QuiverClient, QuiverError, ToolProgress  # noqa: E402

COMMAND = json.loads(os.environ.get("QUIVER_COMMAND", '["quiver"]'))
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


class QuiverClientTest(unittest.TestCase):
    def setUp(self):
        self.workspace = tempfile.mkdtemp(prefix="quiver-python-client-")
        self.addCleanup(shutil.rmtree, self.workspace, True)
        os.makedirs(os.path.join(self.workspace, "personalities"))
        self.write("quiver.yaml", "defaultPersonality: agent\n")
        self.write(
            "personalities/agent.yaml",
            "id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n  ask: [snapshot]\n",
        )
        self.write("notes.txt", "remember the milk\n")
        self.env = {**os.environ, "NO_COLOR": "1", "XDG_DATA_HOME": os.path.join(self.workspace, ".xdg")}

    def write(self, name, text):
        with open(os.path.join(self.workspace, name), "w", encoding="utf-8") as file:
            file.write(text)

    def client(self, trust=True, **handlers):
        command = [*COMMAND, "--trust-project"] if trust else COMMAND
        client = QuiverClient(command, cwd=self.workspace, env=self.env, **handlers)
        self.addCleanup(client.shutdown)
        return client

    def test_runs_quivers_tool_and_its_own_with_asks_progress_images_and_events(self):
        asked = []

        def answer(request):
            asked.append(request["question"]["headline"])
            city = request["args"]["city"]
            return {"behavior": "allow", "scope": "once"} if city == "Oslo" else {"behavior": "deny", "reason": "not there"}

        def snapshot(args, context):
            context.progress(ToolProgress(progress=1, total=1, message="pointing the camera"))
            return {"ok": True, "value": f"sky over {args['city']}", "attachments": [{"type": "image", "mimeType": "image/png", "data": PIXEL}]}

        client = self.client(on_permission=answer)
        self.assertEqual(client.info.trust.state, "trusted")
        tool = ExternalTool(
            name="snapshot",
            description="A picture of the sky over a city.",
            parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            execute=snapshot,
        )
        session = client.create_session(external_tools=[tool], session_id="python-client")
        events = []
        session.on_event(events.append)
        ready = session.ready()
        self.assertIn("read_file", ready.tools)
        self.assertIn("snapshot", [entry["name"] for entry in session.render("mcp")["tools"]])
        results = session.execute([
            {"id": "r1", "name": "read_file", "args": {"path": "notes.txt"}},
            {"id": "s1", "name": "snapshot", "args": {"city": "Oslo"}},
            {"id": "s2", "name": "snapshot", "args": {"city": "Bergen"}},
        ])
        self.assertIn("remember the milk", results[0]["value"])
        self.assertEqual(results[1]["attachments"][0]["data"], PIXEL)
        self.assertEqual(results[2]["code"], "not_permitted")
        self.assertIn("not there", results[2]["error"])
        self.assertEqual(len(asked), 2)
        types = [event["type"] for event in events]
        self.assertIn("tool.execution_progress", types)
        self.assertEqual(types.count("tool.execution_complete"), 3)
        self.assertIn("python-client", [summary["id"] for summary in client.list_sessions()])
        self.assertEqual({call["callId"] for call in client.session_log("python-client")["calls"]}, {"r1", "s1", "s2"})
        session.close()
        self.assertEqual(client.shutdown(), 0)

    def test_aborts_a_call_its_tool_is_still_running(self):
        started = threading.Event()

        def wait(_args, context):
            started.set()
            context.cancelled.wait(30)
            return "stopped" if context.cancelled.is_set() else "never cancelled"

        client = self.client()
        session = client.create_session(
            external_tools=[ExternalTool(name="wait_forever", description="Waits until cancelled.", execute=wait, skip_permission=True)]
        )
        running = session.execute_async([{"id": "w", "name": "wait_forever", "args": {}}], turn=7)
        self.assertTrue(started.wait(30))
        self.assertEqual(session.abort(turn=7), 1)
        self.assertEqual(running.result(30)["results"][0]["code"], "aborted")

    def test_fails_with_the_fix_for_an_untrusted_personality_and_an_unknown_resume(self):
        client = self.client(trust=False)
        self.assertEqual(client.info.trust.state, "untrusted")
        with self.assertRaises(QuiverError) as refused:
            client.create_session(personality="agent")
        self.assertEqual(refused.exception.quiver_code, "personality_untrusted")
        self.assertIn("--trust-project", refused.exception.fix)
        with self.assertRaises(QuiverError) as unknown:
            client.resume_session("never-was")
        self.assertEqual(unknown.exception.code, -32001)


if __name__ == "__main__":
    unittest.main()
