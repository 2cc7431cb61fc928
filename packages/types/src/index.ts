// Public surface of @quiver/types: the contract plugin authors depend on.

export type {
  AttachmentsHandle,
  CapabilityBackend,
  CapabilityBackendRegistry,
  CapabilityDeclarations,
  CapabilityHandles,
  CapabilityName,
  CapabilityRequest,
  FsReachHandle,
  InnerToolInfo,
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
  ToolsHandle,
} from './capabilities.js';
export { CAPABILITY_NAMES } from './capabilities.js';
export { childProcessEnvironment, isChildEnvironmentName } from './child-environment.js';
export type {
  ClientRelayHandle,
  ClientRelayKind,
  ElicitationOutcome,
  RelayedRequest,
  RelayRefusal,
  RootsOutcome,
  SamplingOutcome,
} from './client-relay.js';
export { CLIENT_RELAY_KINDS } from './client-relay.js';
export type { ErrorCode, QuiverErrorOptions, ToolErrorCode } from './errors.js';
export { ERROR_CODES, errorMessage, isQuiverError, QuiverError } from './errors.js';
export type { EventBus, QuiverEvent, QuiverEventOf, QuiverEventType } from './events.js';
export {
  abortEvent,
  clientRelayCompletedEvent,
  clientRelayRequestedEvent,
  hookCompletedEvent,
  hookStartedEvent,
  isDurableEvent,
  LOG_LEVELS,
  mcpServerLoggedEvent,
  permissionCompletedEvent,
  permissionRequestedEvent,
  quiverEventSchema,
  sessionInfoEvent,
  sessionToolsUpdatedEvent,
  sessionWarningEvent,
  subscribeToTypes,
  TRANSIENT_EVENT_TYPES,
  toolExecutionCompleteEvent,
  toolExecutionLogEvent,
  toolExecutionPartialResultEvent,
  toolExecutionProgressEvent,
  toolExecutionStartEvent,
  toolsListChangedEvent,
  toolUserRequestedEvent,
} from './events.js';
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
export type { ModelQuestion } from './model-question.js';
export { renderModelPlan, renderModelQuestion } from './model-question.js';
export { matchesNamePattern } from './name-pattern.js';
export type { PathArgumentResolution, RealPath } from './path-resolution.js';
export { isProcessRelativePath, resolvePathArgument, resolveRealPath } from './path-resolution.js';
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
export { PERMISSION_KINDS } from './permissions.js';
export type { PermissionAnswerChoice, PermissionQuestion } from './person-question.js';
export { describeCallArguments, renderPermissionQuestion } from './person-question.js';
export type {
  Logger,
  PersonalityDemand,
  PluginApiVersion,
  PluginConfigRecord,
  PluginContext,
  PluginDefinition,
  PluginEvents,
  PluginLifecycle,
  PluginPaths,
  PluginServiceName,
  PluginServices,
} from './plugin.js';
export { definePlugin, SUPPORTED_PLUGIN_API_VERSIONS } from './plugin.js';
export type { ReducerInput, ToolResultReducer, ToolResultReducerRegistry } from './reducer.js';
export type {
  RegisteredTool,
  RegisterOptions,
  ToolCall,
  ToolRegistry,
  UnloadedTool,
} from './registry.js';
export { DEFAULT_RESULT_BUDGET } from './registry.js';
export type { RelayedQuestion } from './relayed-question.js';
export { relayedAsker, renderRelayedQuestion } from './relayed-question.js';
export type { Attachment, ContentAnnotations, ToolFailure, ToolResult, ToolSuccess } from './result.js';
export { fail, isToolResult, ok, resultText } from './result.js';
export type {
  ConnectStoreOptions,
  PortableMigrations,
  SqlChangeFeed,
  SqlDialect,
  SqlExpressions,
  SqlParameter,
  SqlQueryable,
  SqlStore,
  SqlTransactionOptions,
  StorageScope,
} from './sql-store.js';
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
export { defineTool, TOOL_NAME_PATTERN } from './tool.js';
export type { VisibleTextOptions } from './visible-text.js';
export { visibleText } from './visible-text.js';
