"""A `quiver rpc` child process and its sessions, over JSON-RPC 2.0 with Content-Length framing."""

import json
import os
import subprocess
import threading
from concurrent.futures import Future
from typing import Any, Callable, Dict, List, Optional, Sequence

from .types import (
    PROTOCOL_VERSION,
    ElicitationRequest,
    Event,
    ExternalTool,
    ExternalToolContext,
    PermissionRequest,
    SamplingRequest,
    ServerInfo,
    SessionReady,
    ToolCall,
    ToolProgress,
    ToolResult,
    Trust,
)

_STDERR_KEPT = 16384


class QuiverError(Exception):
    """A JSON-RPC error from Quiver. `quiver_code` and `fix` are set when Quiver gave them."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data
        details = data if isinstance(data, dict) else {}
        self.quiver_code: Optional[str] = details.get("code")
        self.fix: Optional[str] = details.get("fix")

    def __str__(self) -> str:
        return self.message + (f"\nFix: {self.fix}" if self.fix else "")


class QuiverClient:
    """Starts `quiver rpc` and initializes it. Use as a context manager, or call `shutdown()`.

    command: the program and its arguments before `rpc`, e.g. ["quiver", "--trust-project"].
    on_permission / on_elicitation / on_sampling: answer asks and bridged servers' questions;
    without a handler asks are denied (with the rule that would allow) and questions refused.
    """

    def __init__(
        self,
        command: Sequence[str] = ("quiver",),
        cwd: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        client_name: str = "quiver-client-python",
        on_permission: Optional[Callable[[PermissionRequest], Dict[str, Any]]] = None,
        on_elicitation: Optional[Callable[[ElicitationRequest], Dict[str, Any]]] = None,
        on_sampling: Optional[Callable[[SamplingRequest], Dict[str, Any]]] = None,
    ):
        self._process = subprocess.Popen(
            [*command, "rpc"],
            cwd=cwd,
            env=env if env is not None else dict(os.environ),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._next_id = 0
        self._pending: Dict[int, Future] = {}
        self._sessions: Dict[str, "QuiverSession"] = {}
        self._early_ready: Dict[str, SessionReady] = {}
        self._running: Dict[Any, threading.Event] = {}
        self._stderr = b""
        self._handlers: Dict[str, Callable[[Dict[str, Any]], Any]] = {}
        if on_permission:
            self._handlers["permission.requested"] = on_permission
        if on_elicitation:
            self._handlers["elicitation.requested"] = on_elicitation
        if on_sampling:
            self._handlers["sampling.requested"] = on_sampling
        threading.Thread(target=self._read_stderr, daemon=True).start()
        threading.Thread(target=self._read_loop, daemon=True).start()
        result = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "client": {"name": client_name},
                "capabilities": {
                    "permissions": on_permission is not None,
                    "elicitation": on_elicitation is not None,
                    "sampling": on_sampling is not None,
                },
            },
        )
        trust = result["trust"]
        self.info = ServerInfo(
            protocol_version=result["protocolVersion"],
            version=result["server"]["version"],
            default_personality=result["defaultPersonality"],
            workspace=result["workspace"],
            trust=Trust(state=trust["state"], notice=trust.get("notice"), fix=trust.get("fix")),
        )

    # -- sessions ------------------------------------------------------------------------

    def create_session(
        self, external_tools: Sequence[ExternalTool] = (), session_id: Optional[str] = None, **options: Any
    ) -> "QuiverSession":
        """Opens a session; options are those of `session.create` (personality, model, permissions, …)."""
        params = dict(options)
        if session_id is not None:
            params["sessionId"] = session_id
        return self._open("session.create", params, external_tools)

    def resume_session(self, session_id: str, external_tools: Sequence[ExternalTool] = (), **options: Any):
        """Continues a session an earlier process logged; `interrupted_calls` lists what it left unfinished."""
        return self._open("session.resume", {**options, "sessionId": session_id}, external_tools)

    def _open(self, method: str, params: Dict[str, Any], tools: Sequence[ExternalTool]) -> "QuiverSession":
        if tools:
            params["externalTools"] = [tool.definition() for tool in tools]
        opened = self.request(method, params)
        session = QuiverSession(self, opened, tools)
        with self._state_lock:
            self._sessions[session.id] = session
            early = self._early_ready.pop(session.id, None)
        if early is not None:
            session._set_ready(early)
        return session

    def list_sessions(self, limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """The sessions of the durable log, most recent first."""
        return self.request("session.list", {} if limit is None else {"limit": limit})["sessions"]

    def session_log(self, session_id: str, events: bool = False) -> Dict[str, Any]:
        """One session's calls (and durable events) from the log."""
        return self.request("session.log", {"sessionId": session_id, "events": events})

    def shutdown(self, timeout: float = 30) -> Optional[int]:
        """Closes every session, ends the process and returns its exit code."""
        if self._process.poll() is None:
            try:
                self.request("shutdown", {}, timeout=timeout)
            except (QuiverError, ConnectionError):
                pass
        try:
            code = self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            code = self._process.wait()
        with self._write_lock:
            self._process.stdin.close()
        return code

    def __enter__(self) -> "QuiverClient":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.shutdown()

    @property
    def stderr(self) -> str:
        """The last lines Quiver wrote to stderr (warnings, the trust notice)."""
        return self._stderr.decode("utf-8", "replace")

    # -- JSON-RPC ------------------------------------------------------------------------

    def request(self, method: str, params: Dict[str, Any], timeout: Optional[float] = None) -> Any:
        """Sends a request and waits for its result; an error answer raises QuiverError."""
        return self.request_async(method, params).result(timeout=timeout)

    def request_async(self, method: str, params: Dict[str, Any]) -> Future:
        future: Future = Future()
        with self._state_lock:
            self._next_id += 1
            request_id = self._next_id
            self._pending[request_id] = future
        future.request_id = request_id  # type: ignore[attr-defined]
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return future

    def cancel(self, future: Future) -> None:
        """Cancels a request made with request_async (`$/cancelRequest`); Quiver still answers it."""
        self._send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": future.request_id}})  # type: ignore[attr-defined]

    def notify(self, method: str, params: Dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message: Dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        with self._write_lock:
            try:
                self._process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self._process.stdin.flush()
            except (BrokenPipeError, ValueError) as error:
                raise ConnectionError(f"quiver rpc is not running: {self.stderr.strip()}") from error

    def _read_message(self) -> Optional[Dict[str, Any]]:
        length = None
        while True:
            line = self._process.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                if length is None:
                    continue
                break
            name, _, value = line.decode("ascii", "replace").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        return json.loads(self._process.stdout.read(length))

    def _read_loop(self) -> None:
        while True:
            message = self._read_message()
            if message is None:
                break
            if "method" in message:
                if "id" in message:
                    threading.Thread(target=self._answer, args=(message,), daemon=True).start()
                else:
                    self._notification(message["method"], message.get("params") or {})
                continue
            with self._state_lock:
                future = self._pending.pop(message.get("id"), None)
            if future is None:
                continue
            if "error" in message:
                error = message["error"]
                future.set_exception(QuiverError(error.get("code", 0), error.get("message", ""), error.get("data")))
            else:
                future.set_result(message.get("result"))
        self._process.wait()
        with self._state_lock:
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.set_exception(ConnectionError(f"quiver rpc ended: {self.stderr.strip()}"))

    def _read_stderr(self) -> None:
        for line in self._process.stderr:
            self._stderr = (self._stderr + line)[-_STDERR_KEPT:]

    def _notification(self, method: str, params: Dict[str, Any]) -> None:
        if method == "$/cancelRequest":
            with self._state_lock:
                cancelled = self._running.get(params.get("id"))
            if cancelled is not None:
                cancelled.set()
            return
        session_id = params.get("sessionId")
        with self._state_lock:
            session = self._sessions.get(session_id)
        if method == "session.event" and session is not None:
            session._receive_event(params["event"])
        elif method == "session.ready":
            ready = SessionReady(
                session_id=session_id,
                signature=params["signature"],
                tools=params["tools"],
                diagnostics=params.get("diagnostics", []),
            )
            if session is not None:
                session._set_ready(ready)
            else:
                with self._state_lock:
                    self._early_ready[session_id] = ready

    def _answer(self, message: Dict[str, Any]) -> None:
        method, params, request_id = message["method"], message.get("params") or {}, message["id"]
        try:
            if method == "external_tool.requested":
                cancelled = threading.Event()
                with self._state_lock:
                    self._running[request_id] = cancelled
                    session = self._sessions.get(params.get("sessionId"))
                try:
                    if session is None:
                        result: Any = {"ok": False, "error": "no such session in this client"}
                    else:
                        result = session._run_tool(params["toolName"], params.get("arguments"), params["callId"], cancelled)
                finally:
                    with self._state_lock:
                        self._running.pop(request_id, None)
            elif method in self._handlers:
                result = self._handlers[method](params)
            else:
                self._send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"{method} is not handled"}})
                return
            self._send({"jsonrpc": "2.0", "id": request_id, "result": result})
        except Exception as error:  # noqa: BLE001 - every failure is answered, never dropped
            self._send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": str(error)}})


class QuiverSession:
    """One session of a `quiver rpc` process."""

    def __init__(self, client: QuiverClient, opened: Dict[str, Any], tools: Sequence[ExternalTool]):
        self._client = client
        self.id: str = opened["sessionId"]
        self.personality: str = opened["personality"]
        self.interrupted_calls: List[str] = opened["interruptedCalls"]
        self._tools = {tool.name: tool for tool in tools}
        self._listeners: List[Callable[[Event], None]] = []
        self._ready: "Future[SessionReady]" = Future()
        self._turn = 0

    def ready(self, timeout: Optional[float] = 60) -> SessionReady:
        """Waits until the tools are assembled, MCP servers included: render after it."""
        return self._ready.result(timeout=timeout)

    def on_event(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        """Calls `listener` with every lifecycle event; returns a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def render(self, format: str = "anthropic", include_deferred: bool = False) -> Dict[str, Any]:
        """The definitions the model sees: `tools` in the provider's format, `nameMap`, `signature`."""
        params: Dict[str, Any] = {"sessionId": self.id, "format": format}
        if include_deferred:
            params["includeDeferred"] = True
        return self._client.request("session.render", params)

    def execute(self, calls: Sequence[ToolCall], turn: Optional[int] = None, dry_run: bool = False) -> List[ToolResult]:
        """Runs the model's calls through the pipeline; results in input order, failures as results."""
        return self.execute_async(calls, turn=turn, dry_run=dry_run).result()["results"]

    def execute_async(self, calls: Sequence[ToolCall], turn: Optional[int] = None, dry_run: bool = False) -> Future:
        """Starts an execution; `client.cancel(future)` or `abort()` end it (its calls complete `aborted`)."""
        params: Dict[str, Any] = {"sessionId": self.id, "calls": list(calls)}
        if turn is not None:
            params["turn"] = turn
        if dry_run:
            params["dryRun"] = True
        return self._client.request_async("session.execute", params)

    def abort(self, turn: Optional[int] = None, reason: Optional[str] = None) -> int:
        params: Dict[str, Any] = {"sessionId": self.id}
        if turn is not None:
            params["turn"] = turn
        if reason is not None:
            params["reason"] = reason
        return self._client.request("session.abort", params)["aborted"]

    def explain(self, tool: str) -> str:
        return self._client.request("session.explain", {"sessionId": self.id, "tool": tool})["text"]

    def close(self) -> None:
        self._client.request("session.close", {"sessionId": self.id})

    def _receive_event(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    def _set_ready(self, ready: SessionReady) -> None:
        if not self._ready.done():
            self._ready.set_result(ready)

    def _run_tool(self, name: str, args: Any, call_id: str, cancelled: threading.Event) -> ToolResult:
        tool = self._tools.get(name)
        if tool is None:
            return {"ok": False, "error": f"This client has no tool {name}.", "code": "not_available"}

        def progress(report: ToolProgress) -> None:
            fields = {key: value for key, value in vars(report).items() if value is not None}
            self._client.notify("external_tool.progress", {"sessionId": self.id, "callId": call_id, **fields})

        try:
            result = tool.execute(args, ExternalToolContext(call_id=call_id, cancelled=cancelled, progress=progress))
        except Exception as error:  # noqa: BLE001 - a failing tool is a failed result
            return {"ok": False, "error": str(error)}
        return {"ok": True, "value": result} if isinstance(result, str) else result
