import type { ReconnectPolicy } from './bridge-types.js';

/**
 * Reconnection of one server with exponential backoff and jitter, and the calls waiting for it
 * to come back (an idempotent call retried after the server went away).
 */
export class ReconnectSchedule {
  #attempt = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #waiters = new Set<(connected: boolean) => void>();

  constructor(
    private readonly policy: ReconnectPolicy,
    private readonly reconnect: () => void,
  ) {}

  /** Failed attempts since the server was last connected. */
  get attempt(): number {
    return this.#attempt;
  }

  /** Tries again later: each failure doubles the delay, up to the policy's maximum. */
  schedule(): void {
    this.#attempt += 1;
    const { initialDelayMs, maxDelayMs } = this.policy;
    const base = Math.min(maxDelayMs, initialDelayMs * 2 ** (this.#attempt - 1));
    // Jitter keeps many bridges that lost the same server from reconnecting in lockstep.
    const delay = Math.min(maxDelayMs, base * (0.75 + Math.random() * 0.5));
    this.#timer = setTimeout(() => this.reconnect(), delay);
    this.#timer.unref();
  }

  /** The server is connected: the backoff starts over and the waiting calls go on. */
  connected(): void {
    this.#attempt = 0;
    this.release(true);
  }

  /** No further attempt (the server is stopping). */
  cancel(): void {
    clearTimeout(this.#timer);
  }

  /** Answers every waiting call: `true` when the server is back. */
  release(connected: boolean): void {
    for (const resolve of this.#waiters) resolve(connected);
    this.#waiters.clear();
  }

  /** Resolves `true` when the server connects within `timeoutMs`, `false` on timeout, abort or stop. */
  wait(signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (connected: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiters.delete(finish);
        resolve(connected);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(finish);
    });
  }
}
