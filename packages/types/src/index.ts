// Public surface of @quiver/types: the contract plugin authors depend on.
export { ERROR_CODES, QuiverError, isQuiverError } from './errors.js';
export type { ErrorCode, ToolErrorCode, QuiverErrorOptions } from './errors.js';
export { ok, fail, resultText, isToolResult } from './result.js';
export type { Attachment, ToolResult, ToolSuccess, ToolFailure } from './result.js';
export { CAPABILITY_NAMES } from './capabilities.js';
export type {
  AttachmentsHandle,
  CapabilityBackend,
  CapabilityBackendRegistry,
  CapabilityDeclarations,
  CapabilityHandles,
  CapabilityName,
  CapabilityRequest,
  FsReachHandle,
  NetworkHandle,
  OpenDatabaseOptions,
  ProcessHandle,
  ResolvedCapabilities,
  SandboxMode,
  SecretsHandle,
  SqlDatabase,
  SqlRunResult,
  SqlStatement,
  StorageHandle,
  StorageScope,
} from './capabilities.js';
export { PERMISSION_KINDS } from './permissions.js';
export type {
  GrantScope,
  PermissionAnswer,
  PermissionBehavior,
  PermissionDecision,
  PermissionKind,
  PermissionPrompt,
  PermissionResolver,
  PermissionRules,
  PermissionSubjectDecision,
  ToolPermissionSpec,
} from './permissions.js';
export type {
  HookCallInfo,
  HookEventName,
  PostToolUseFailureHook,
  PostToolUseFailureOutcome,
  PostToolUseHook,
  PostToolUseOutcome,
  PreToolUseHook,
  PreToolUseOutcome,
  ToolHook,
} from './hooks.js';
export { TOOL_NAME_PATTERN, defineTool } from './tool.js';
export type {
  AgentIdentity,
  AgentKind,
  McpToolOrigin,
  SessionState,
  Tool,
  ToolAnnotations,
  ToolAvailability,
  ToolContext,
  ToolDefinitionLite,
  ToolEmission,
  ToolFilterOpts,
  ToolTimeouts,
} from './tool.js';
export type { ReducerInput, ToolResultReducer, ToolResultReducerRegistry } from './reducer.js';
export { DEFAULT_RESULT_BUDGET } from './registry.js';
export type {
  ExecuteContext,
  ExecutionInterceptor,
  InterceptDecision,
  PreparedCall,
  RegisterOptions,
  RegisteredTool,
  ToolCall,
  ToolRegistry,
} from './registry.js';
export {
  TRANSIENT_EVENT_TYPES,
  abortEvent,
  hookCompletedEvent,
  hookStartedEvent,
  isDurableEvent,
  permissionCompletedEvent,
  permissionRequestedEvent,
  quiverEventSchema,
  sessionInfoEvent,
  sessionToolsUpdatedEvent,
  sessionWarningEvent,
  toolExecutionCompleteEvent,
  toolExecutionPartialResultEvent,
  toolExecutionProgressEvent,
  toolExecutionStartEvent,
  toolUserRequestedEvent,
} from './events.js';
export type { EventBus, QuiverEvent, QuiverEventOf, QuiverEventType } from './events.js';
export { SUPPORTED_PLUGIN_API_VERSIONS, definePlugin } from './plugin.js';
export type {
  Logger,
  PluginApiVersion,
  PluginContext,
  PluginDefinition,
  PluginEvents,
  PluginLifecycle,
  PluginPaths,
  PluginServiceName,
  PluginServices,
} from './plugin.js';
