import {
  type Attachment,
  fail,
  type SessionState,
  type ToolCall,
  type ToolFilterOpts,
  type ToolResult,
  type ToolResultReducerRegistry,
} from '@quiver/types';
import { type AbortLinks, CallAbort } from './abort-links.js';
import { type AttachmentLimits, capAttachments, trimResult } from './budget.js';
import type { ExecuteContext } from './execute-context.js';
import { messageOf } from './gates.js';
import { InMemorySessionState } from './session-state.js';

const NO_ATTACHMENTS: readonly Attachment[] = Object.freeze([]);

export interface BatchOptions {
  ctx: ExecuteContext;
  perCallBudget: number;
  allowedTools: readonly string[] | undefined;
  filterOpts: ToolFilterOpts | undefined;
  turnAttachments: readonly Attachment[] | undefined;
  reducers: ToolResultReducerRegistry | undefined;
  links: AbortLinks;
  /** The cap on all attachments of the batch; none when the caller applies its own. */
  attachmentLimits: Readonly<AttachmentLimits> | undefined;
}

/** Runs one call of a batch with its abort state; rejects only on a bug, which the batch maps. */
export type StartCall = (call: ToolCall, abort: CallAbort) => Promise<ToolResult>;

/**
 * One `executeParallel` call: what its calls share, and the collection of their results. When
 * the caller aborts, every call still running is answered `aborted` at once, whether or not its
 * tool honours the signal.
 */
export class Batch {
  readonly ctx: ExecuteContext;
  readonly perCallBudget: number;
  readonly allowedTools: readonly string[] | undefined;
  readonly filterOpts: ToolFilterOpts | undefined;
  readonly attachments: readonly Attachment[];
  readonly reducers: ToolResultReducerRegistry | undefined;
  readonly #links: AbortLinks;
  readonly #attachmentLimits: Readonly<AttachmentLimits> | undefined;
  #session: SessionState | undefined;
  #calls: readonly ToolCall[] = [];
  #aborts: CallAbort[] = [];
  #results: Array<ToolResult | undefined> = [];
  #remaining = 0;
  #settled = false;
  #resolve: (results: ToolResult[]) => void = () => {};

  constructor(options: BatchOptions) {
    this.ctx = options.ctx;
    this.perCallBudget = options.perCallBudget;
    this.allowedTools = options.allowedTools;
    this.filterOpts = options.filterOpts;
    this.attachments = options.turnAttachments ?? NO_ATTACHMENTS;
    this.reducers = options.reducers;
    this.#links = options.links;
    this.#attachmentLimits = options.attachmentLimits;
    this.#session = options.ctx.session;
  }

  /** Without a session from the caller, the calls of a batch share one in-memory session. */
  get session(): SessionState {
    this.#session ??= new InMemorySessionState();
    return this.#session;
  }

  run(calls: readonly ToolCall[], start: StartCall): Promise<ToolResult[]> {
    const count = calls.length;
    this.#calls = calls;
    this.#aborts = new Array<CallAbort>(count);
    this.#results = new Array<ToolResult | undefined>(count);
    this.#remaining = count;
    const settled = new Promise<ToolResult[]>((resolve) => {
      this.#resolve = resolve;
    });
    const signal = this.ctx.signal;
    if (signal !== undefined) {
      if (signal.aborted) {
        this.abort(signal.reason);
        return settled;
      }
      this.#links.link(signal, this);
    }
    for (let index = 0; index < count; index++) {
      const call = calls[index] as ToolCall;
      const abort = new CallAbort();
      this.#aborts[index] = abort;
      start(call, abort).then(
        (result) => this.#complete(index, result),
        (error: unknown) => this.#complete(index, internalFailure(call, error, this.perCallBudget)),
      );
    }
    return settled;
  }

  /** Answers every unfinished call `aborted` and aborts its signal. */
  abort(reason: unknown): void {
    if (this.#settled) return;
    for (let index = 0; index < this.#calls.length; index++) {
      if (this.#results[index] !== undefined) continue;
      const call = this.#calls[index];
      const name = typeof call?.name === 'string' ? call.name : String(call?.name);
      const detail =
        reason === undefined || (reason instanceof Error && reason.name === 'AbortError')
          ? ''
          : `: ${messageOf(reason)}`;
      this.#results[index] = trimResult(
        fail('aborted', `Tool "${name}" was aborted before it completed${detail}`),
        this.perCallBudget,
      );
      this.#aborts[index]?.abort(reason);
    }
    this.#settle();
  }

  #complete(index: number, result: ToolResult): void {
    if (this.#settled || this.#results[index] !== undefined) return;
    this.#results[index] = result;
    this.#remaining -= 1;
    if (this.#remaining === 0) this.#settle();
  }

  #settle(): void {
    this.#settled = true;
    if (this.ctx.signal !== undefined) this.#links.unlink(this.ctx.signal, this);
    const results = this.#results as ToolResult[];
    const limits = this.#attachmentLimits;
    this.#resolve(limits === undefined ? results : capAttachments(results, limits, () => this.perCallBudget));
  }
}

/** The result for a call that hit a bug in the registry itself: still a result, never a throw. */
export function internalFailure(call: ToolCall | undefined, error: unknown, budget: number): ToolResult {
  const name = typeof call?.name === 'string' ? call.name : String(call?.name);
  return trimResult(
    fail('execution_failed', `Tool "${name}" failed inside the registry: ${messageOf(error)}`),
    budget,
  );
}
