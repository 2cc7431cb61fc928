import { getEventListeners } from 'node:events';

/** A batch's own abort: a caller's signal or cancel handle stops that batch, not its turn. */
export interface BatchAbort {
  signal: AbortSignal;
  /** Runs `listener` once when this batch aborts; the returned function stops watching. */
  watch(listener: () => void): () => void;
  abort(reason: unknown): void;
  /** The batch has ended: a controller that never aborted and that nothing watches is kept for the next. */
  release(): void;
}

/** Enough for the requests a client keeps in flight at once; past it, controllers are made and dropped. */
const KEPT = 16;
/**
 * The abort listeners a controller may carry and still be handed on: its own fan-out, and the one
 * core's runner keeps per caller signal. One more was left by someone else (a permission resolver
 * or hook that kept the signal): a later batch's cancel would reach it, so the controller is dropped.
 */
const OWN_LISTENERS = 2;

/**
 * Batch controllers that outlive their batch. `quiver serve` gives every request a cancel handle,
 * so each call is a batch of its own: a new AbortController, its signal, an abort listener of the
 * batch's and one of core's runner per call cost more than the rest of a pass-through call's
 * pipeline. A controller that was never aborted is handed to a later batch instead, with its one
 * listener fanning out to the watchers of the batch holding it (as a turn's controller is shared
 * by the turn's batches). An aborted controller is never handed out again.
 */
export class BatchAborts {
  readonly #idle: PooledAbort[] = [];

  take(): BatchAbort {
    return this.#idle.pop() ?? new PooledAbort(this.#idle);
  }
}

class PooledAbort implements BatchAbort {
  readonly #controller = new AbortController();
  readonly #watchers = new Set<() => void>();
  readonly #idle: PooledAbort[];
  readonly signal: AbortSignal;

  constructor(idle: PooledAbort[]) {
    this.#idle = idle;
    this.signal = this.#controller.signal;
    this.signal.addEventListener(
      'abort',
      () => {
        const watchers = [...this.#watchers];
        this.#watchers.clear();
        for (const watcher of watchers) watcher();
      },
      { once: true },
    );
  }

  /** A function of its own (not a method): the pipeline is handed it as it is. */
  readonly watch = (listener: () => void): (() => void) => {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  };

  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  release(): void {
    if (this.signal.aborted || this.#watchers.size > 0 || this.#idle.length >= KEPT) return;
    if (getEventListeners(this.signal, 'abort').length > OWN_LISTENERS) return;
    this.#idle.push(this);
  }
}
