import { fail, isToolResult, type Tool, type ToolContext, type ToolResult } from '@quiver/types';
import type { CallAbort } from './abort-links.js';
import { messageOf } from './gates.js';

/**
 * Calls `tool.execute` with the call's own signal, and settles as soon as the call times out
 * even if the tool ignores its signal. Never rejects.
 */
export async function runTool(
  tool: Tool,
  args: unknown,
  context: ToolContext,
  call: CallAbort,
  parentSignal: AbortSignal | undefined,
): Promise<ToolResult> {
  if (parentSignal?.aborted === true) return abortedResult(tool, parentSignal);
  const timeoutMs = context.timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    let outcome: unknown;
    try {
      outcome = tool.execute(args, context);
    } catch (error) {
      return thrownResult(tool, error, call, timeoutMs, parentSignal);
    }
    if (isThenable(outcome)) {
      if (typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs >= 0) {
        timer = setTimeout(() => {
          call.timedOut = true;
          call.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
        }, timeoutMs);
      }
      try {
        // The batch settles calls aborted by the caller; only a timeout needs a race per call.
        outcome = timer === undefined ? await outcome : await raceAbort(outcome, call);
      } catch (error) {
        return thrownResult(tool, error, call, timeoutMs, parentSignal);
      }
      if (outcome === ABORTED)
        return call.timedOut ? timeoutResult(tool, timeoutMs) : abortedResult(tool, parentSignal);
    }
    if (isToolResult(outcome)) return outcome;
    return fail(
      'execution_failed',
      `Tool "${tool.name}" returned something that is not a ToolResult: ${describe(outcome)}`,
    );
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

const ABORTED = Symbol('aborted');

function raceAbort(outcome: PromiseLike<unknown>, call: CallAbort): Promise<unknown> {
  if (call.aborted) return Promise.resolve(ABORTED);
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
