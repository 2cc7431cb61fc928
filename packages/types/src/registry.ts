import type { CapabilityBackendRegistry } from './capabilities.js';
import type { HookCallInfo } from './hooks.js';
import type { ToolResultReducerRegistry } from './reducer.js';
import type { Attachment, ToolResult } from './result.js';
import type {
  AgentIdentity,
  SessionState,
  Tool,
  ToolDefinitionLite,
  ToolEmission,
  ToolFilterOpts,
} from './tool.js';

export interface ToolCall {
  /** Call id from the model; generated when absent. */
  id?: string;
  name: string;
  args: unknown;
}

export interface RegisterOptions {
  pluginId?: string;
}

export interface RegisteredTool {
  tool: Tool;
  pluginId?: string;
  /** JSON Schema derived once at registration. */
  parameters: Record<string, unknown>;
}

/** A call after lookup, gates and validation: what interceptors see. */
export interface PreparedCall extends HookCallInfo {
  tool: Tool;
  pluginId?: string;
  signal: AbortSignal;
}

export type InterceptDecision =
  | { action: 'continue'; args?: unknown }
  | { action: 'result'; result: ToolResult };

/**
 * Lets the runtime wrap the core pipeline (permissions, hooks, events) without copying it.
 * `beforeExecute` runs after validation (step 6), before dry run and execute; returned args are
 * re-validated. `afterExecute` runs after reducer and trim.
 */
export interface ExecutionInterceptor {
  beforeExecute?(call: PreparedCall): Promise<InterceptDecision> | InterceptDecision;
  afterExecute?(
    call: PreparedCall,
    result: ToolResult,
    info: { durationMs: number },
  ): Promise<ToolResult> | ToolResult;
}

export interface ExecuteContext {
  sessionId: string;
  personalityId: string;
  agent: AgentIdentity;
  turn: number;
  signal?: AbortSignal;
  /** Total result budget in chars for all calls of this batch; default 80,000. */
  budget?: number;
  dryRun?: boolean;
  emit?: (callId: string, emission: ToolEmission) => void;
  session?: SessionState;
  backends?: CapabilityBackendRegistry;
  interceptor?: ExecutionInterceptor;
  /**
   * Per-call timeout resolver. The tool sees it as `ctx.timeoutMs` and should stop itself then,
   * keeping what it has; the registry aborts the call's signal at that time and answers `timeout`
   * itself only as a backstop a little later (for MCP tools: the tool's `timeouts.maxMs`,
   * restarted by each progress emission).
   */
  timeoutFor?: (tool: Tool, args: unknown) => number | undefined;
  /** Reducers for this batch instead of the registry's own (a personality's view). */
  reducers?: ToolResultReducerRegistry;
  /**
   * Receives each tool execution as it starts, settling when the tool itself has returned, which
   * can be after its call was answered (an aborted command still being killed). A caller that
   * must not exit before its tools have stopped waits for these.
   */
  track?: (execution: Promise<void>) => void;
}

export interface ToolRegistry {
  register(tool: Tool, options?: RegisterOptions): () => void;
  registerAll(tools: readonly Tool[], options?: RegisterOptions): () => void;
  unregister(name: string): boolean;
  get(name: string): RegisteredTool | undefined;
  list(): RegisteredTool[];
  getAvailable(): RegisteredTool[];
  getForToolset(toolset: string): RegisteredTool[];
  executeParallel(
    calls: readonly ToolCall[],
    ctx: ExecuteContext,
    allowedTools?: readonly string[],
    filterOpts?: ToolFilterOpts,
    turnAttachments?: readonly Attachment[],
  ): Promise<ToolResult[]>;
  toDefinitions(allowedTools?: readonly string[], filterOpts?: ToolFilterOpts): ToolDefinitionLite[];
  /** Called after any register/unregister. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export const DEFAULT_RESULT_BUDGET = 80_000;
