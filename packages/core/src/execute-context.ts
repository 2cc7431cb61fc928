import type {
  AgentIdentity,
  CapabilityBackendRegistry,
  SessionState,
  Tool,
  ToolEmission,
  ToolResultReducerRegistry,
} from '@quiver/types';

/** What every call of one `executeParallel` shares. */
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
