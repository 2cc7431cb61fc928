import type {
  AgentIdentity,
  Attachment,
  CapabilityBackendRegistry,
  SessionState,
  ToolEmission,
  ToolResult,
} from '@quiver/types';
import { AbortLinks } from './abort-links.js';
import { Batch, internalFailure } from './batch.js';
import type { ExecuteContext } from './execute-context.js';
import { executeTool, type ToolTarget } from './execute-tool.js';

/** One checked call for `ToolRunner.run`: the caller has done lookup, gates, validation and permission. */
export interface ToolRun extends ToolTarget {
  callId: string;
  /** Validated arguments. */
  args: unknown;
  sessionId: string;
  personalityId: string;
  agent: AgentIdentity;
  turn: number;
  /** The caller's signal: when it aborts, the call is answered `aborted` at once. */
  signal?: AbortSignal;
  /** The characters the tool may return; the `aborted` and `timeout` answers are trimmed to it. */
  budget: number;
  /** The tool's timeout; its signal aborts then, and the backstop answers `timeout` 5 s later. */
  timeoutMs?: number;
  backends?: CapabilityBackendRegistry;
  session?: SessionState;
  attachments?: readonly Attachment[];
  emit?: (emission: ToolEmission) => void;
  /** Receives the tool's execution, which can outlive its answered call. */
  track?: (execution: Promise<void>) => void;
}

/**
 * Core's entry point for a caller that owns the steps around execution (the runtime's call
 * pipeline): capabilities, execute, timeout backstop and abort, with the same code
 * `executeParallel` uses. The result is the tool's own (snapshotted), neither reduced nor trimmed;
 * `run` never throws and never calls back into its caller beyond `emit` and `track`.
 */
export class ToolRunner {
  readonly #links = new AbortLinks();

  async run(run: ToolRun): Promise<ToolResult> {
    const call = { id: run.callId, name: run.tool.name, args: run.args };
    try {
      const emit = run.emit;
      const ctx: ExecuteContext = {
        sessionId: run.sessionId,
        personalityId: run.personalityId,
        agent: run.agent,
        turn: run.turn,
        signal: run.signal,
        backends: run.backends,
        session: run.session,
        track: run.track,
        emit: emit === undefined ? undefined : (_callId, emission) => emit(emission),
      };
      const batch = new Batch({
        ctx,
        perCallBudget: run.budget,
        allowedTools: undefined,
        filterOpts: undefined,
        turnAttachments: run.attachments,
        reducers: undefined,
        links: this.#links,
        attachmentLimits: undefined,
      });
      const execution = {
        registered: run,
        args: run.args,
        callId: run.callId,
        budget: run.budget,
        timeoutMs: run.timeoutMs,
      };
      const [result] = await batch.run([call], (_call, abort) => executeTool(execution, batch, abort));
      return result ?? internalFailure(call, new Error('no result'), run.budget);
    } catch (error) {
      return internalFailure(call, error, run.budget);
    }
  }
}
