import { trimResult } from '@quiver/core';
import { errorMessage, fail, type ToolResult } from '@quiver/types';
import { abortedMidCall } from './aborted-results.js';
import { type CallEventSink, type CallState, completeCall } from './call-events.js';

/**
 * Runs every call and collects results in input order. When the signal aborts, every call not
 * yet completed is answered `aborted` at once, whether or not what it waits on honours the
 * signal; its completion event follows when its pipeline has stopped (after the events of the
 * steps it was in), reporting that answer.
 */
export function settleInOrder(
  states: readonly CallState[],
  signal: AbortSignal,
  budget: number,
  sink: CallEventSink,
  run: (state: CallState) => Promise<ToolResult>,
  watch: (listener: () => void) => () => void = (listener) => listenOnce(signal, listener),
): Promise<ToolResult[]> {
  const results = new Array<ToolResult | undefined>(states.length);
  let remaining = states.length;
  if (remaining === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    let unwatch: (() => void) | undefined;
    const fill = (index: number, result: ToolResult) => {
      if (results[index] !== undefined) return;
      results[index] = result;
      remaining -= 1;
      if (remaining === 0) {
        unwatch?.();
        resolve(results as ToolResult[]);
      }
    };
    const onAbort = () => {
      states.forEach((state, index) => {
        // A call already completed answers with its own result, which is on its way.
        if (state.completed || results[index] !== undefined) return;
        state.answered = trimResult(abortedMidCall(state.toolName, signal), budget);
        fill(index, state.answered);
      });
    };
    unwatch = watch(onAbort);
    states.forEach((state, index) => {
      run(state).then(
        (result) => fill(index, result),
        (error: unknown) => fill(index, completeCall(state, internalFailure(state, error), sink)),
      );
    });
    if (signal.aborted) onAbort();
  });
}

function listenOnce(signal: AbortSignal, listener: () => void): () => void {
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

function internalFailure(state: CallState, error: unknown): ToolResult {
  const message = errorMessage(error);
  return fail('execution_failed', `Tool "${state.toolName}" failed inside the session pipeline: ${message}`);
}
