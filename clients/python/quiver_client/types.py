"""Typed shapes of the `quiver rpc` protocol (docs/rpc.md, @quiver/cli/rpc-protocol.schema.json)."""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Literal, Optional, TypedDict, Union

PROTOCOL_VERSION = "1"


class ToolCall(TypedDict, total=False):
    id: str
    name: str
    args: Any


class Attachment(TypedDict, total=False):
    type: Literal["image", "audio", "file", "resource"]
    mimeType: str
    data: str
    text: str
    uri: str
    name: str


class ToolResult(TypedDict, total=False):
    ok: bool
    value: str
    code: str
    error: str
    structured: Any
    attachments: List[Attachment]


class PermissionQuestion(TypedDict, total=False):
    text: str
    headline: str
    needsApproval: List[str]
    alwaysRule: str
    choices: List[Dict[str, str]]


class PermissionRequest(TypedDict, total=False):
    """`permission.requested`: show `question`, never `args` raw."""

    sessionId: str
    callId: str
    toolName: str
    args: Any
    decision: Dict[str, Any]
    question: PermissionQuestion


class ElicitationRequest(TypedDict, total=False):
    """A bridged server's question, rendered by Quiver: show `message` and the form as given."""

    sessionId: str
    callId: str
    toolName: str
    mcpServer: str
    message: str
    requestedSchema: Dict[str, Any]


class SamplingRequest(TypedDict, total=False):
    """A bridged server asks for a model completion; its system prompt is labelled as the server's."""

    sessionId: str
    callId: str
    toolName: str
    mcpServer: str
    params: Dict[str, Any]


class Event(TypedDict, total=False):
    """One lifecycle event (`session.event`); every type and its fields are in docs/rpc.md."""

    type: str
    id: str
    sessionId: str
    timestamp: float
    callId: str
    toolName: str


@dataclass(frozen=True)
class Trust:
    state: Literal["trusted", "untrusted", "changed"]
    notice: Optional[str] = None
    fix: Optional[str] = None


@dataclass(frozen=True)
class ServerInfo:
    protocol_version: str
    version: str
    default_personality: str
    workspace: str
    trust: Trust


@dataclass(frozen=True)
class SessionReady:
    session_id: str
    signature: str
    tools: List[str]
    diagnostics: List[Dict[str, Any]]


@dataclass
class ToolProgress:
    """What a running external tool reports before it returns (any of the fields)."""

    progress: Optional[float] = None
    total: Optional[float] = None
    message: Optional[str] = None
    partial: Optional[str] = None


@dataclass
class ExternalToolContext:
    call_id: str
    #: Set when Quiver cancels the call (the turn was aborted, or the call timed out).
    cancelled: Any
    progress: Callable[[ToolProgress], None]


ExternalToolResult = Union[str, ToolResult]


@dataclass
class ExternalTool:
    """A tool this process runs: Quiver gates, validates, permission-checks and logs each call first."""

    name: str
    description: str
    execute: Callable[[Any, ExternalToolContext], ExternalToolResult]
    parameters: Optional[Dict[str, Any]] = None
    skip_permission: bool = False
    timeout_ms: Optional[int] = None
    extra: Dict[str, Any] = field(default_factory=dict)

    def definition(self) -> Dict[str, Any]:
        wire: Dict[str, Any] = {"name": self.name, "description": self.description, **self.extra}
        if self.parameters is not None:
            wire["parameters"] = self.parameters
        if self.skip_permission:
            wire["skipPermission"] = True
        if self.timeout_ms is not None:
            wire["timeoutMs"] = self.timeout_ms
        return wire
