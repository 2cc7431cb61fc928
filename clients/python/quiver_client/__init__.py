"""Python client of `quiver rpc` (standard library only): Quiver's gated, logged tool sessions."""

from .client import QuiverClient, QuiverError, QuiverSession
from .types import (
    PROTOCOL_VERSION,
    Attachment,
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

__all__ = [
    "PROTOCOL_VERSION",
    "Attachment",
    "ElicitationRequest",
    "Event",
    "ExternalTool",
    "ExternalToolContext",
    "PermissionRequest",
    "QuiverClient",
    "QuiverError",
    "QuiverSession",
    "SamplingRequest",
    "ServerInfo",
    "SessionReady",
    "ToolCall",
    "ToolProgress",
    "ToolResult",
    "Trust",
]
