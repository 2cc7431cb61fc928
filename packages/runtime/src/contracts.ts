import type { WorkspaceFilePins } from '@quiver/permissions';
import type {
  Attachment,
  CapabilityBackendRegistry,
  EventBus,
  PermissionResolver,
  PermissionRules,
  RegisteredTool,
  SessionState,
  Tool,
  ToolAnnotations,
  ToolCall,
  ToolContext,
  ToolDefinitionLite,
  ToolHook,
  ToolRegistry,
  ToolResult,
  ToolResultReducerRegistry,
} from '@quiver/types';
import type { SharedPermissionEngine } from './lifecycle/permission-decider.js';
import type { ArgumentRecording } from './log/argument-shapes.js';
import type { SqliteBackend } from './storage/sqlite-backend.js';

/**
 * The shapes shared by assembly, the execution lifecycle and the plugin host. Plain data:
 * the plugin host maps a personality to a SessionPolicy; the runtime never reads YAML.
 */

/** `any`: the model is unknown, so both editing styles stay available. */
export type EditStyle = 'apply_patch' | 'str_replace' | 'any';
export type ProviderFormat = 'anthropic' | 'openai' | 'gemini' | 'mcp';

export interface ModelProfile {
  id: string;
  /** Model names this profile applies to: lowercase prefixes or `/regex/`. */
  match: string[];
  provider: ProviderFormat;
  supportsDeferLoading: boolean;
  editStyle: EditStyle;
  /** Provider limit on tool-name length. */
  toolNameLimit: number;
  deferThreshold?: DeferThreshold;
}

export interface DeferThreshold {
  /** Defer when the pool has more tools than this. */
  maxTools?: number;
  /** Defer when the definitions' estimated tokens exceed this. */
  maxTokens?: number;
}

export interface CustomAgentPolicy {
  description?: string;
  /** `["*"]` or absent: most tools; named tools: those plus mandatory support tools. */
  tools?: string[];
  disallowedTools?: string[];
}

export interface McpServerGate {
  includeTools?: string[];
  excludeTools?: string[];
}

/** Everything assembly and execution need from a personality. */
export interface SessionPolicy {
  personalityId: string;
  /** Built-in tool names; undefined = every built-in of the enabled plugins; [] = none. */
  toolset?: string[];
  /** Enabled plugin ids (deny by default). */
  plugins: string[];
  /** Enabled MCP servers (deny by default) with per-server include/exclude. */
  mcpServers: Record<string, McpServerGate>;
  permissions: PermissionRules;
  agents: Record<string, CustomAgentPolicy>;
  budget: { resultChars: number };
  deferLoading: { enabled: boolean | 'auto' } & DeferThreshold;
  simpleMode?: boolean;
  /** REPL mode: with the repl tool in the pool, the primitives it wraps are reached only inside it. */
  repl?: boolean;
  /** Per-profile overrides by profile id (e.g. `{ gpt: { editStyle: 'str_replace' } }`). */
  modelProfiles?: Record<string, Partial<Omit<ModelProfile, 'id'>>>;
  /** What the session log keeps of call arguments; default `full`. */
  logArguments?: ArgumentRecording;
}

/** A tool supplied by an SDK client at session level, in JSON Schema form. */
export interface ExternalToolDefinition {
  name: string;
  description: string;
  title?: string;
  /** A JSON object schema; absent means the tool takes no arguments (an empty object schema). */
  parameters?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  overridesBuiltInTool?: boolean;
  /**
   * Run without asking for permission when no rule decides the call (as the SDK client vouches
   * for it); deny rules still apply. Headless sessions run such a tool instead of denying it.
   */
  skipPermission?: boolean;
  /** `emit` reports progress, partial text or log lines of the running call to the session's events. */
  execute(
    args: unknown,
    ctx: { callId: string; signal: AbortSignal; emit: ToolContext['emit'] },
  ): Promise<ToolResult> | ToolResult;
}

export type SessionAgentKind = 'main' | 'subagent' | 'async' | 'teammate' | 'coordinator';

export interface SessionOptions {
  personality?: string;
  /** Agent context; default 'main'. */
  agent?: SessionAgentKind;
  /** Selected custom agent (from the personality's `agents`). */
  customAgent?: string;
  availableTools?: string[];
  excludedTools?: string[];
  defaultAgentExcludedTools?: string[];
  externalTools?: ExternalToolDefinition[];
  /** Model name; picks a model profile. */
  model?: string;
  /** Extra permission rules for this session (merged after the personality's). */
  permissions?: PermissionRules;
  /** No resolver = headless: every ask becomes a deny. */
  permissionResolver?: PermissionResolver;
  /** Resume an existing session id (orphaned calls are marked interrupted). */
  sessionId?: string;
  /**
   * The client may list tools only once (an MCP client): tool_search stays in the pool whenever
   * the personality enables MCP servers, even below the deferral threshold, so the tools of
   * servers that connect later remain reachable.
   */
  stableToolList?: boolean;
  /**
   * Who called: the signed-in caller (a token's subject) of an authenticated server. Recorded
   * with the session in the event log and with the grants its person saves.
   */
  caller?: string;
}

export type PoolToolSource = 'builtin' | 'mcp' | 'external';

export interface PoolTool {
  name: string;
  source: PoolToolSource;
  /** For external tools, a Tool wrapping the definition (input accepts the JSON-Schema-validated args). */
  tool: Tool;
  pluginId?: string;
  mcpServer?: string;
  deferred: boolean;
  parameters: Record<string, unknown>;
}

export type AssemblyStage =
  | 'candidates'
  | 'overrides'
  | 'deny_rules'
  | 'enabled'
  | 'session_filter'
  | 'agent_context'
  | 'model_profile'
  | 'repl'
  | 'defer';

export interface PoolDiagnostic {
  level: 'info' | 'warning' | 'error';
  code: string;
  message: string;
  tool?: string;
}

export interface RemovalReason {
  stage: AssemblyStage;
  /** The rule or setting that removed it, as written. */
  rule: string;
  reason: string;
}

export interface ToolPool {
  /** Neutral definitions in final order; render with renderDefinitions(). */
  definitions: ToolDefinitionLite[];
  executables: ReadonlyMap<string, PoolTool>;
  signature: string;
  diagnostics: PoolDiagnostic[];
  /** Why each candidate that is not in the pool was removed (for `quiver tools --explain`). */
  removed: ReadonlyMap<string, RemovalReason>;
  profile: ModelProfile;
  /** Version of the external definitions this pool was built from. */
  externalVersion: number;
  /** How many leading definitions are the stable built-in prefix (where a provider cache breakpoint goes). */
  stablePrefixLength?: number;
  /** Coordinator pools: the tools its workers can use, in pool order. */
  workerTools?: string[];
  /** Text the agent builder adds to the model's context for this agent kind (a coordinator is told its workers' tools). */
  agentContext?: string;
  /** REPL mode: tools taken off the model's list that scripts of the repl tool still call. */
  innerTools?: ReadonlyMap<string, PoolTool>;
}

export interface HookRegistry {
  register(hook: ToolHook, owner?: string): () => void;
  list(event: ToolHook['event'], toolName: string): ToolHook[];
  removeOwner(owner: string): void;
}

/** Durable log of a session's events (SQLite in the data dir). */
export interface SessionEventLog {
  append(event: import('@quiver/types').QuiverEvent): void;
  /** Writes several events in one transaction (all or none); `append` one by one when absent. */
  appendAll?(events: readonly import('@quiver/types').QuiverEvent[]): void;
  /**
   * A channel to a writer thread of the log's own, which sessions use when present (`appendAll`
   * otherwise): writes are handed over without waiting for their commit, and the failures of
   * this channel's writes are reported to `onFailure`. Undefined when this log writes on the
   * calling thread (as without the method).
   */
  openWriteBehind?(onFailure: WriteBehindFailure): WriteBehindChannel | undefined;
  /**
   * Marks calls that started and never completed as interrupted; returns their ids. A log shared
   * by several replicas answers with a promise and spares the calls of live replicas.
   */
  recoverOrphans(sessionId: string): string[] | Promise<string[]>;
  close(): void;
  /** Records who a session is for (personality, agent); called when an executor starts. */
  beginSession?(session: { id: string; personalityId?: string; agent?: string; caller?: string }): void;
  /** Records the session's end; called when its executor is disposed. */
  endSession?(sessionId: string): void;
}

/**
 * A failed write of a write-behind channel; busy failures are flagged once per stretch of busy.
 * `lostEvents`: how many events the failed write held (they are not in the log).
 */
export type WriteBehindFailure = (
  error: Error & { code?: string },
  firstOfBusyStretch: boolean,
  lostEvents?: number,
) => void;

/** One session's channel to a log's writer thread. */
export interface WriteBehindChannel {
  /**
   * Hands the events over as one transaction and returns the write's id. The events must not
   * change afterwards (they may be serialised later); what cannot be serialised fails the write.
   */
  write(events: readonly import('@quiver/types').QuiverEvent[]): number;
  /** Resolves once that write and the ones before it are committed or have failed (and been reported). */
  written(id: number): Promise<void>;
  /**
   * Blocks the calling thread, for at most `timeoutMs`, until the log's thread has settled every
   * write handed to it so far (by any channel), so that a write on the calling thread comes after
   * them; false when it has not.
   */
  settle(timeoutMs: number): boolean;
  /** No more writes on this channel. */
  close(): void;
}

/** Shared services a session is built from (root and personality scope). */
export interface SessionDeps {
  registry: ToolRegistry;
  reducers: ToolResultReducerRegistry;
  backends: CapabilityBackendRegistry;
  hooks: HookRegistry;
  policy: SessionPolicy;
  workspace: string;
  dataDir: string;
  /** Host-wide bus; sessions publish their events here too. */
  events?: EventBus;
  /** Custom model profiles added to the built-in ones. */
  profiles?: ModelProfile[];
  /** Durable event log; sessions hand it to their call executor. */
  eventLog?: SessionEventLog;
  /**
   * Paths Quiver loads as configuration or code, and its data directory: write-denied to every
   * tool whatever the rules say (the permission engine's `protectedPaths`).
   */
  protectedPaths?: ReadonlyArray<string | { path: string; reason?: string }>;
  /** The trust record's pinned workspace files that allowed programs read (the permission engine's `filePins`). */
  filePins?: WorkspaceFilePins;
  /** The personality's permission engine, shared by its sessions; default: one per call executor. */
  permissionEngine?: SharedPermissionEngine;
  /**
   * The SQLite driver a call executor without `permissionEngine` opens `<dataDir>/permissions.db`
   * with (`sqliteBackend` of `@quiver/storage-sqlite`); without either, no saved grant applies.
   */
  sqlite?: SqliteBackend;
  /**
   * Starts the personality's MCP servers (the named ones, default every one it enables) unless
   * they are started, and resolves when each has connected or failed. Never rejects.
   */
  demand?: (servers?: readonly string[]) => Promise<void>;
}

export interface ExecuteCallsOptions {
  turn?: number;
  /** The model that asked for these calls; default the session's. Reported on each completion. */
  model?: string;
  /** The embedder's id of the model interaction these calls belong to, reported on each completion. */
  interactionId?: string;
  signal?: AbortSignal;
  /**
   * The caller's cancel without an AbortSignal, for a gateway whose calls are rarely cancelled
   * (a signal and its listener cost more than a call's bookkeeping): the batch binds its abort
   * when it starts and unbinds it when it ends. Cancelling does what aborting `signal` does.
   */
  cancel?: CallCancelHandle;
  dryRun?: boolean;
  attachments?: readonly Attachment[];
  /**
   * Calls (by id) a person already approved through the embedder's own approval step (after
   * `Session.check` said they would ask): such a call's ask is answered with this scope instead
   * of asking the session's resolver. A deny rule still denies; `session` saves the rule the
   * engine suggests for the session (or applies to this call only when it suggests none).
   */
  approvals?: Readonly<Record<string, 'once' | 'session'>>;
}

/** See `ExecuteCallsOptions.cancel`. */
export interface CallCancelHandle {
  /** `abort` ends the batch's unfinished calls as `aborted`; called at once when already cancelled. */
  bind(abort: (reason?: unknown) => void): void;
  unbind(): void;
}

export interface SessionLike {
  readonly id: string;
  readonly state: SessionState;
  pool(): ToolPool;
  execute(calls: readonly ToolCall[], options?: ExecuteCallsOptions): Promise<ToolResult[]>;
}

export type { RegisteredTool };
