// Public surface of @quiver/runtime.

export type { AgentToolPolicy } from './agents/agent-policies.js';
export {
  AGENT_TOOL_POLICIES,
  ALL_AGENT_DISALLOWED_TOOLS,
  ASYNC_AGENT_ALLOWED_TOOLS,
  COORDINATOR_ALLOWED_TOOLS,
  COORDINATOR_MCP_TOOL_SUFFIXES,
  CUSTOM_AGENT_DISALLOWED_TOOLS,
  CUSTOM_AGENT_MANDATORY_TOOLS,
  TEAMMATE_ADDED_TOOLS,
} from './agents/agent-policies.js';
export type { TeammateIdentity } from './agents/teammate-context.js';
export { currentTeammate, runAsTeammate } from './agents/teammate-context.js';
export type { NamedTool, ToolNameCatalog, ToolNameCheck } from './agents/tool-name-resolver.js';
export { checkToolName, namesTool, toolNameSuggestions } from './agents/tool-name-resolver.js';
export { toolsForChildren } from './assembly/agent-context.js';
export type { AssemblyInput } from './assembly/assemble-tool-pool.js';
export { assembleToolPool } from './assembly/assemble-tool-pool.js';
export { estimateTokens } from './assembly/definitions.js';
export { explainTool } from './assembly/explain-tool.js';
export { toolNameCatalog } from './assembly/named-settings.js';
export type {
  AssemblyStage,
  CallCancelHandle,
  CustomAgentPolicy,
  DeferThreshold,
  EditStyle,
  ExecuteCallsOptions,
  ExternalToolDefinition,
  HookRegistry,
  McpServerGate,
  ModelProfile,
  PoolDiagnostic,
  PoolTool,
  PoolToolSource,
  ProviderFormat,
  RemovalReason,
  SessionAgentKind,
  SessionDeps,
  SessionEventLog,
  SessionLike,
  SessionOptions,
  SessionPolicy,
  ToolPool,
  WriteBehindChannel,
  WriteBehindFailure,
} from './contracts.js';
export type { InMemoryEventBusOptions } from './events/bus.js';
export { InMemoryEventBus } from './events/bus.js';
export type { AskUserAnswer, HarnessCapabilities, PlanVerdict } from './harness/harness-tools.js';
export { HARNESS_TOOL_NAMES, harnessTools } from './harness/harness-tools.js';
export type { CallExecutor, CallExecutorOptions } from './lifecycle/executor.js';
export { createCallExecutor, openSessionLogWriter } from './lifecycle/executor.js';
export { DefaultHookRegistry } from './lifecycle/hook-registry.js';
export { DEFAULT_HOOK_TIMEOUT_MS } from './lifecycle/hook-runner.js';
export type { PersonalityPermissionEngineOptions } from './lifecycle/permission-engine.js';
export { PersonalityPermissionEngine } from './lifecycle/permission-engine.js';
export type { CallCheck } from './lifecycle/permission-preview.js';
export type {
  CallRecord,
  CallStatus,
  FileEditMetric,
  FileEditMetrics,
  SessionRecordInput,
  SessionSummary,
} from './log/records.js';
export { SESSION_LOG_MIGRATIONS } from './log/schema.js';
export type { SessionLogWriter } from './log/session-log-writer.js';
export type {
  LogReplica,
  RecoveredCall,
  SharedSessionEventLogOptions,
} from './log/shared-session-event-log.js';
export { SharedSessionEventLog } from './log/shared-session-event-log.js';
export type { SqliteSessionEventLogOptions } from './log/sqlite-session-event-log.js';
export { SqliteSessionEventLog } from './log/sqlite-session-event-log.js';
export type { ResolveModelProfileOptions } from './profiles/model-profiles.js';
export {
  BUILT_IN_MODEL_PROFILES,
  listModelProfiles,
  resolveModelProfile,
} from './profiles/model-profiles.js';
export { toGeminiSchema } from './providers/gemini-schema.js';
export { allowsOpenAiStrict } from './providers/openai-strict.js';
export { providerToolName, resolveProviderName } from './providers/provider-names.js';
export type {
  AnthropicToolDefinition,
  GeminiFunctionDeclaration,
  GeminiToolBlock,
  McpToolDefinition,
  OpenAiToolDefinition,
  RenderedDefinitions,
  RenderedToolsByFormat,
  RenderOptions,
} from './providers/render-definitions.js';
export {
  MCP_SERVER_META_KEY,
  renderDefinitions,
  renderToolPool,
} from './providers/render-definitions.js';
export { resolveToolName } from './providers/resolve-tool-name.js';
export {
  CLAUDE_CODE_NAMES_WITHOUT_COUNTERPART,
  isClaudeCodeToolName,
  TOOL_NAME_COMPATIBILITY,
} from './providers/tool-name-compatibility.js';
export type { ToolSearchMode } from './search/search-tools.js';
export { searchTools } from './search/search-tools.js';
export type { ToolSearchIndex } from './search/tool-search-index.js';
export { createToolSearchIndex, toolSearchIndexFor } from './search/tool-search-index.js';
export type { ToolSearchToolOptions } from './search/tool-search-tool.js';
export { createToolSearchTool, TOOL_SEARCH_TOOL_NAME } from './search/tool-search-tool.js';
export { createSession, Session } from './session/session.js';
export type { SessionServices } from './session/session-services.js';
export type { SqliteBackend, SqliteConnection, SqliteHostStoreHandle } from './storage/sqlite-backend.js';
export { openSqliteProjectGrants } from './storage/sqlite-project-grants.js';
