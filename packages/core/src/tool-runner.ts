import {
  type AgentIdentity,
  type Attachment,
  type CapabilityBackendRegistry,
  fail,
  type SessionState,
  type ToolEmission,
  type ToolResult,
} from '@quiver/types';
import { AbortLinks, CallAbort } from './abort-links.js';
import { internalFailure } from './batch.js';
import { trimResult } from './budget.js';
import type { ExecuteContext } from './execute-context.js';
import { type CallScope, executeTool, type ToolTarget } from './execute-tool.js';
import { messageOf } from './gates.js';
import { InMemorySessionState } from './session-state.js';

const NO_ATTACHMENTS: readonly Attachment[] = Object.freeze([]);

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

  run(run: ToolRun): Promise<ToolResult> {
    const call = { id: run.callId, name: run.tool.name, args: run.args };
    try {
      const signal = run.signal;
      if (signal?.aborted) return Promise.resolve(abortedResult(run, signal.reason));
      const emit = run.emit;
      const ctx: ExecuteContext = {
        sessionId: run.sessionId,
        personalityId: run.personalityId,
        agent: run.agent,
        turn: run.turn,
        signal,
        backends: run.backends,
        session: run.session,
        track: run.track,
        emit: emit === undefined ? undefined : (_callId, emission) => emit(emission),
      };
      const execution = {
        registered: run,
        args: run.args,
        callId: run.callId,
        budget: run.budget,
        timeoutMs: run.timeoutMs,
      };
      const abort = new CallAbort();
      // One call needs no batch: it settles with the tool's result or, at once, with the caller's abort.
      return new Promise<ToolResult>((resolve) => {
        let settled = false;
        const link = {
          abort: (reason: unknown) => {
            if (settled) return;
            settled = true;
            resolve(abortedResult(run, reason));
            abort.abort(reason);
          },
        };
        const settle = (result: ToolResult) => {
          if (settled) return;
          settled = true;
          if (signal !== undefined) this.#links.unlink(signal, link);
          resolve(result);
        };
        if (signal !== undefined) this.#links.link(signal, link);
        executeTool(execution, new RunScope(ctx, run.attachments, run.session), abort).then(settle, (error) =>
          settle(internalFailure(call, error, run.budget)),
        );
      });
    } catch (error) {
      return Promise.resolve(internalFailure(call, error, run.budget));
    }
  }
}

/** The one call's share of what a batch would give its calls. */
class RunScope implements CallScope {
  readonly ctx: ExecuteContext;
  readonly attachments: readonly Attachment[];
  #session: SessionState | undefined;

  constructor(
    ctx: ExecuteContext,
    attachments: readonly Attachment[] | undefined,
    session: SessionState | undefined,
  ) {
    this.ctx = ctx;
    this.attachments = attachments ?? NO_ATTACHMENTS;
    this.#session = session;
  }

  /** Without a session from the caller, the call gets an in-memory one. */
  get session(): SessionState {
    this.#session ??= new InMemorySessionState();
    return this.#session;
  }
}

/** What a batch answers for a call its caller aborted (same text, same trim). */
function abortedResult(run: ToolRun, reason: unknown): ToolResult {
  const detail =
    reason === undefined || (reason instanceof Error && reason.name === 'AbortError')
      ? ''
      : `: ${messageOf(reason)}`;
  return trimResult(
    fail('aborted', `Tool "${run.tool.name}" was aborted before it completed${detail}`),
    run.budget,
  );
}
