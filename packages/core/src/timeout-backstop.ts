import type { Tool } from '@quiver/types';
import type { CallAbort } from './abort-links.js';

/**
 * How long after its timeout a tool that was told to stop may take to return what it has (a
 * command's kill step is SIGTERM, a grace of 2 s, SIGKILL, then reading the last output).
 */
export const BACKSTOP_GRACE_MS = 5_000;

export interface Backstop {
  /** Arms the timers once the tool is running. */
  start(): void;
  /** A progress emission: an MCP tool's backstop starts over. */
  progress(): void;
  stop(): void;
}

/**
 * The registry's timers for one call, or undefined when the call has no timeout. At the timeout
 * the call's signal is aborted with a TimeoutError and the tool gets to return its own result;
 * the backstop answers `timeout` for it when it does not. An MCP tool manages its own timeout,
 * restarted by progress, so its signal is left alone and its backstop is the server's maximum
 * (`timeouts.maxMs`), itself restarted by progress.
 */
export function backstopFor(
  tool: Tool,
  timeoutMs: number | undefined,
  call: CallAbort,
): Backstop | undefined {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) return undefined;
  if (tool.mcp !== undefined) {
    const maxMs = tool.timeouts?.maxMs;
    const limit = typeof maxMs === 'number' && maxMs > timeoutMs ? maxMs : timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    return {
      start() {
        timer = setTimeout(() => {
          call.timedOut = true;
          call.abort(timeoutError(timeoutMs));
        }, limit);
      },
      progress() {
        timer?.refresh();
      },
      stop() {
        clearTimeout(timer);
      },
    };
  }
  let soft: ReturnType<typeof setTimeout> | undefined;
  let hard: ReturnType<typeof setTimeout> | undefined;
  return {
    start() {
      soft = setTimeout(() => call.expire(timeoutError(timeoutMs)), timeoutMs);
      hard = setTimeout(() => {
        call.timedOut = true;
        call.settle?.();
      }, timeoutMs + BACKSTOP_GRACE_MS);
    },
    progress() {},
    stop() {
      clearTimeout(soft);
      clearTimeout(hard);
    },
  };
}

/** Made when a deadline passes, not per call. */
function timeoutError(timeoutMs: number): DOMException {
  return new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError');
}
