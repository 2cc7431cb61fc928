import { fail, isQuiverError, type Tool, type ToolContext, type ToolResult } from '@quiver/types';
import type { CallAbort } from './abort-links.js';
import { messageOf } from './gates.js';
import { snapshotResult } from './snapshot-result.js';
import { type Backstop, backstopFor } from './timeout-backstop.js';

export interface RunToolOptions {
  parentSignal: AbortSignal | undefined;
  track: ((execution: Promise<void>) => void) | undefined;
  /** Progress emissions restart an MCP tool's backstop; set by runTool before the tool runs. */
  backstop?: Backstop;
}

/**
 * Calls `tool.execute` with the call's own signal. At the call's timeout the signal is aborted
 * so that the tool stops itself and returns what it has; the call is answered `timeout` by the
 * registry only when the tool has not returned by the backstop. Never rejects.
 */
export async function runTool(
  tool: Tool,
  args: unknown,
  context: ToolContext,
  call: CallAbort,
  options: RunToolOptions,
): Promise<ToolResult> {
  const { parentSignal } = options;
  if (parentSignal?.aborted === true) return abortedResult(tool, parentSignal);
  const timeoutMs = context.timeoutMs;
  const backstop = backstopFor(tool, timeoutMs, call);
  options.backstop = backstop;
  try {
    let outcome: unknown;
    try {
      outcome = tool.execute(args, context);
    } catch (error) {
      return thrownResult(tool, error, call, timeoutMs, parentSignal);
    }
    if (isThenable(outcome)) {
      if (options.track !== undefined) {
        options.track(Promise.resolve(outcome).then(ignore, ignore));
      }
      backstop?.start();
      try {
        // The batch settles calls aborted by the caller; only a timeout needs a race per call.
        outcome = backstop === undefined ? await outcome : await raceBackstop(outcome, call);
      } catch (error) {
        return thrownResult(tool, error, call, timeoutMs, parentSignal);
      }
      if (outcome === ABORTED)
        return call.timedOut ? timeoutResult(tool, timeoutMs) : abortedResult(tool, parentSignal);
    }
    const snapshot = snapshotResult(outcome);
    if (snapshot !== undefined) {
      const result = snapshot.result;
      // A tool that only honours its signal reports the abort; the cause was the timeout.
      if (call.timedOut && !result.ok && result.code === 'aborted') return { ...result, code: 'timeout' };
      return result;
    }
    return fail(
      'execution_failed',
      `Tool "${tool.name}" returned something that is not a ToolResult: ${describe(outcome)}`,
    );
  } finally {
    backstop?.stop();
  }
}

const ABORTED = Symbol('aborted');

/** Settles when the tool returns, or when the backstop gives up on it; the caller's aborts go through the batch. */
function raceBackstop(outcome: PromiseLike<unknown>, call: CallAbort): Promise<unknown> {
  if (call.aborted && !call.timedOut) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    call.settle = () => resolve(ABORTED);
    outcome.then(resolve, reject);
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function thrownResult(
  tool: Tool,
  error: unknown,
  call: CallAbort,
  timeoutMs: number | undefined,
  parentSignal: AbortSignal | undefined,
): ToolResult {
  // A tool that rejects because its signal fired reports the abort, not a failure of its own.
  if (call.timedOut) return timeoutResult(tool, timeoutMs);
  if (call.aborted) return abortedResult(tool, parentSignal);
  // Storage faults keep their code, so a client can tell a lost database (retry later) or a
  // damaged store (a person must act) from a tool's own failure.
  if (isQuiverError(error) && (error.code === 'storage_unavailable' || error.code === 'storage_damaged')) {
    const fix = error.fix ? ` Fix: ${error.fix}` : '';
    return fail(error.code, `Tool "${tool.name}" failed: ${error.message}${fix}`);
  }
  return fail('execution_failed', `Tool "${tool.name}" failed: ${messageOf(error)}`);
}

function timeoutResult(tool: Tool, timeoutMs: number | undefined): ToolResult {
  return fail('timeout', `Tool "${tool.name}" timed out after ${timeoutMs} ms`);
}

function abortedResult(tool: Tool, parentSignal: AbortSignal | undefined): ToolResult {
  const reason = parentSignal?.reason;
  const detail =
    reason === undefined || (reason instanceof Error && reason.name === 'AbortError')
      ? ''
      : `: ${messageOf(reason)}`;
  return fail('aborted', `Tool "${tool.name}" was aborted before it completed${detail}`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object' || value === null) return `${typeof value} ${String(value)}`;
  try {
    return JSON.stringify(value).slice(0, 200);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** What a tracked execution settles to: only its end matters (one function for every call). */
function ignore(): void {}
