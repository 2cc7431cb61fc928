/**
 * The abort state of one running call. Its AbortController is created only when the tool reads
 * its signal: creating one costs more than the rest of the pipeline, and most calls never look.
 */
export class CallAbort {
  #controller: AbortController | undefined = undefined;
  #reason: unknown = undefined;
  aborted = false;
  timedOut = false;
  /** Set while the registry waits for the tool, so an abort settles the wait even if the tool ignores its signal. */
  settle: (() => void) | undefined = undefined;
  #listeners: Set<(reason: unknown) => void> | undefined = undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** `ToolContext.onAbort`: told once, at once when already aborted; no AbortSignal is made for it. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) {
      listener(this.#reason);
      return () => {};
    }
    this.#listeners ??= new Set();
    const once = (reason: unknown): void => listener(reason);
    this.#listeners.add(once);
    return () => {
      this.#listeners?.delete(once);
    };
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#tell(reason);
    this.settle?.();
  }

  /** The call's timeout: its signal aborts so the tool stops, but the wait for its result goes on. */
  expire(reason: unknown): void {
    if (this.aborted) return;
    this.timedOut = true;
    this.aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#tell(reason);
  }

  #tell(reason: unknown): void {
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    this.#listeners = undefined;
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch {
        // A listener's failure must not keep the others from hearing of the abort.
      }
    }
  }
}

export interface Abortable {
  abort(reason: unknown): void;
}

/**
 * Links batches to their caller's signal with one listener per caller signal, not one per
 * batch or call: an abort listener costs microseconds in Node, more than the whole pipeline.
 */
export class AbortLinks {
  readonly #running = new WeakMap<AbortSignal, Set<Abortable>>();

  link(parent: AbortSignal, call: Abortable): void {
    let running = this.#running.get(parent);
    if (running === undefined) {
      const calls = new Set<Abortable>();
      running = calls;
      this.#running.set(parent, calls);
      parent.addEventListener(
        'abort',
        () => {
          for (const linked of calls) linked.abort(parent.reason);
          calls.clear();
        },
        { once: true },
      );
    }
    running.add(call);
  }

  unlink(parent: AbortSignal, call: Abortable): void {
    this.#running.get(parent)?.delete(call);
  }
}
