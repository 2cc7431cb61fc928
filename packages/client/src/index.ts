// Public surface of @quiver/client: a TypeScript client of `quiver rpc`.
export { QuiverClient, type QuiverClientOptions, QuiverRpcError } from './client.js';
export { resultText, type SessionTool, type SessionToolsOptions, sessionTools } from './framework-tools.js';
export type {
  AgentKind,
  ApprovalScope,
  Attachment,
  CallCheck,
  CallRecord,
  ElicitationReply,
  ElicitationRequest,
  ExternalToolDefinitionWire,
  ExternalToolReply,
  InitializeResult,
  McpToolDefinition,
  PermissionQuestion,
  PermissionReply,
  PermissionRequest,
  PermissionRules,
  ProviderFormat,
  QuiverEvent,
  RenderResult,
  SamplingReply,
  SamplingRequest,
  SessionLog,
  SessionOpened,
  SessionReady,
  SessionSettings,
  SessionSummary,
  ToolCallRequest,
  ToolResult,
  TrustReport,
} from './protocol-types.js';
export { PROTOCOL_VERSION } from './protocol-types.js';
export {
  type ExecuteOptions,
  type ExternalTool,
  type ExternalToolContext,
  type ExternalToolProgress,
  QuiverSession,
  type SessionOptions,
  type ToolSession,
} from './session.js';
