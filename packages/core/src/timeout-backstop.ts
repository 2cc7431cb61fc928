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
    const deadline: Deadline = {
      due: 0,
      fire() {
        call.timedOut = true;
        call.abort(timeoutError(timeoutMs));
      },
    };
    return {
      start() {
        arm(deadline, Date.now() + limit);
      },
      progress() {
        if (armed.has(deadline)) deadline.due = Date.now() + limit;
      },
      stop() {
        disarm(deadline);
      },
    };
  }
  const soft: Deadline = { due: 0, fire: () => call.expire(timeoutError(timeoutMs)) };
  const hard: Deadline = {
    due: 0,
    fire() {
      call.timedOut = true;
      call.settle?.();
    },
  };
  return {
    start() {
      const now = Date.now();
      arm(soft, now + timeoutMs);
      arm(hard, now + timeoutMs + BACKSTOP_GRACE_MS);
    },
    progress() {},
    stop() {
      disarm(soft);
      disarm(hard);
    },
  };
}

/**
 * The calls' deadlines share one timer, set for the earliest of them: a call that returns in
 * time (nearly all) leaves a set and makes and clears no timer of its own (a timer made and
 * cleared per call was ~2 µs of a ~200 µs bridged call). The timer keeps the process alive only
 * while some call has a deadline, as each call's own timers did. A deadline pushed later
 * (progress) is found when the timer fires and set again.
 */
interface Deadline {
  due: number;
  fire(): void;
}

const armed = new Set<Deadline>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerDue = Number.POSITIVE_INFINITY;

function arm(deadline: Deadline, due: number): void {
  deadline.due = due;
  armed.add(deadline);
  if (due < timerDue) schedule(due);
  else if (armed.size === 1) timer?.ref();
}

function disarm(deadline: Deadline): void {
  if (armed.delete(deadline) && armed.size === 0) timer?.unref();
}

function schedule(due: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerDue = due;
  timer = setTimeout(expire, Math.max(due - Date.now(), 0));
}

function expire(): void {
  timer = undefined;
  timerDue = Number.POSITIVE_INFINITY;
  const now = Date.now();
  try {
    for (const deadline of [...armed]) {
      if (deadline.due > now || !armed.has(deadline)) continue;
      armed.delete(deadline);
      deadline.fire();
    }
  } finally {
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of armed) if (deadline.due < next) next = deadline.due;
    if (next < timerDue) schedule(next);
  }
}

/** Made when a deadline passes, not per call. */
function timeoutError(timeoutMs: number): DOMException {
  return new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError');
}
