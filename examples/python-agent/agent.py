#!/usr/bin/env python3
"""A Python agent that embeds Quiver through `quiver rpc` (JSON-RPC 2.0, LSP framing).

Standard library only. It starts `quiver rpc`, creates a session with a tool the agent itself
runs (an external tool), renders the definitions a model would see, executes a scripted model's
tool calls (a first-party read, the external tool, a call that needs permission), aborts a call
the agent never finishes, and prints what happened as one JSON object.

    python3 agent.py --workspace DIR [--quiver "quiver"]
"""

import argparse
import os
import json
import shlex
import subprocess
import sys
import threading


class QuiverRpc:
    """One `quiver rpc` child process and the JSON-RPC connection over its stdio."""

    def __init__(self, command, workspace):
        self.process = subprocess.Popen(
            command, cwd=workspace, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.next_id = 0
        self.pending = {}
        self.lock = threading.Lock()
        self.handlers = {}
        self.events = []
        self.cancelled = []
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    # -- framing -------------------------------------------------------------------------

    def _send(self, message):
        body = json.dumps(message).encode("utf-8")
        with self.lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read_message(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        return json.loads(self.process.stdout.read(length))

    def _read_loop(self):
        while True:
            message = self._read_message()
            if message is None:
                for waiter in list(self.pending.values()):
                    waiter["error"] = {"code": -1, "message": "quiver rpc exited"}
                    waiter["done"].set()
                return
            if "id" in message and ("result" in message or "error" in message):
                waiter = self.pending.pop(message["id"], None)
                if waiter:
                    waiter.update(message)
                    waiter["done"].set()
            elif "id" in message:
                threading.Thread(target=self._answer, args=(message,), daemon=True).start()
            elif message.get("method") == "session.event":
                self.events.append(message["params"]["event"])
            elif message.get("method") == "$/cancelRequest":
                self.cancelled.append(message["params"]["id"])

    def _answer(self, message):
        handler = self.handlers.get(message["method"])
        if handler is None:
            self._send({"jsonrpc": "2.0", "id": message["id"],
                        "error": {"code": -32601, "message": "no handler"}})
            return
        result = handler(message["params"])
        if result is not None:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    # -- requests ------------------------------------------------------------------------

    def request(self, method, params, timeout=60):
        with self.lock:
            self.next_id += 1
            request_id = self.next_id
        waiter = {"done": threading.Event()}
        self.pending[request_id] = waiter
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        if not waiter["done"].wait(timeout):
            raise TimeoutError("%s got no answer in %ss" % (method, timeout))
        if "error" in waiter:
            raise RuntimeError("%s failed: %s" % (method, waiter["error"]["message"]))
        return waiter["result"]

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


WEATHER = {
    "name": "lookup_weather",
    "description": "Current weather in a city. The agent runs it itself.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
BOOKING = {
    "name": "book_table",
    "description": "Books a table; needs the person's permission.",
    "parameters": {"type": "object", "properties": {"guests": {"type": "integer"}}, "required": ["guests"]},
}
LONG_JOB = {
    "name": "long_job",
    "description": "A job the agent never finishes; used to show an abort.",
    "parameters": {"type": "object", "properties": {}},
    "skipPermission": True,
}


DEMO_FILES = {
    "quiver.yaml": "defaultPersonality: agent\n",
    "personalities/agent.yaml": "id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, lookup_weather]\n",
    "notes.txt": "remember the milk\n",
}


def prepare_workspace(workspace):
    """A new or empty directory gets the demo project this script needs; any other must already have it."""
    if not os.path.isdir(workspace) or not os.listdir(workspace):
        for name, text in DEMO_FILES.items():
            target = os.path.join(workspace, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as handle:
                handle.write(text)
        sys.stderr.write("agent.py: wrote a demo project in %s (%s)\n" % (workspace, ", ".join(DEMO_FILES)))
        return
    missing = [name for name in DEMO_FILES if not os.path.exists(os.path.join(workspace, name))]
    if missing:
        sys.exit("agent.py: %s is not empty and lacks %s. Name a new directory (the script writes a demo "
                 "project there), or add those files as in DEMO_FILES." % (workspace, ", ".join(missing)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workspace", required=True,
                        help="the project: a new or empty directory gets a demo project written into it")
    parser.add_argument("--quiver", default="quiver", help="how to run quiver (a command line)")
    options = parser.parse_args()
    prepare_workspace(options.workspace)

    rpc = QuiverRpc(shlex.split(options.quiver) + ["rpc"], options.workspace)
    ran = []
    asked = []
    def run_tool(params):
        ran.append(params["toolName"])
        if params["toolName"] == "long_job":
            return None  # never answered: the abort below ends it
        return {"ok": True, "value": "%s: done for %s" % (params["toolName"], json.dumps(params["arguments"]))}

    def answer_permission(params):
        asked.append(params["toolName"])
        return {"behavior": "allow", "scope": "once"}

    rpc.handlers["external_tool.requested"] = run_tool
    rpc.handlers["permission.requested"] = answer_permission
    try:
        hello = rpc.request("initialize", {
            "protocolVersion": "1",
            "client": {"name": "python-agent", "version": "1.0"},
            "capabilities": {"permissions": True},
        })
        session = rpc.request("session.create", {"externalTools": [WEATHER, BOOKING, LONG_JOB]})
        session_id = session["sessionId"]
        rendered = rpc.request("session.render", {"sessionId": session_id, "format": "openai"})
        names = sorted(tool["function"]["name"] for tool in rendered["tools"])

        # The scripted model's turn: a first-party read, the agent's own tool, a gated booking.
        executed = rpc.request("session.execute", {"sessionId": session_id, "turn": 1, "calls": [
            {"id": "call-read", "name": "read_file", "args": {"path": "notes.txt"}},
            {"id": "call-weather", "name": "lookup_weather", "args": {"city": "Lisbon"}},
            {"id": "call-book", "name": "book_table", "args": {"guests": 2}},
        ]})["results"]

        # A call the agent never finishes, aborted from the outside.
        outcome = {}
        worker = threading.Thread(target=lambda: outcome.update(rpc.request("session.execute", {
            "sessionId": session_id, "turn": 2, "calls": [{"id": "call-long", "name": "long_job", "args": {}}],
        })))
        worker.start()
        while "long_job" not in ran:
            threading.Event().wait(0.05)
        aborted = rpc.request("session.abort", {"sessionId": session_id, "turn": 2})
        worker.join(30)
        rpc.request("session.close", {"sessionId": session_id})
    finally:
        rpc.close()

    summary = {
        "protocolVersion": hello["protocolVersion"],
        "renderedTools": names,
        "results": executed,
        "externalToolsRun": ran,
        "permissionAsked": asked,
        "abortedExecutions": aborted["aborted"],
        "abortResult": outcome.get("results", [None])[0],
        "cancelRequestsSeen": len(rpc.cancelled),
        "eventTypes": sorted({event["type"] for event in rpc.events}),
    }
    print(json.dumps(summary, indent=2))
    checks = [
        ("read_file" in names and "lookup_weather" in names, "definitions rendered"),
        (executed[0]["ok"] and "remember the milk" in executed[0]["value"], "first-party tool ran"),
        (executed[1] == {"ok": True, "value": 'lookup_weather: done for {"city": "Lisbon"}'}, "external tool ran"),
        (executed[2]["ok"] and asked == ["book_table"], "permission asked and answered"),
        ((summary["abortResult"] or {}).get("code") == "aborted", "abort honoured"),
        ("tool.execution_complete" in summary["eventTypes"], "events observed"),
    ]
    failed = [what for passed, what in checks if not passed]
    if failed:
        print("FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
