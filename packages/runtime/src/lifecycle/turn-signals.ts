/** What a batch of a turn gets: the turn's signal, a way to be told of its abort, and its exit. */
export interface TurnEntry {
  signal: AbortSignal;
  /** Runs `listener` once when the turn aborts; the returned function stops watching. */
  watch(listener: () => void): () => void;
  leave(): void;
}

interface Turn {
  controller: AbortController;
  batches: number;
  watchers: Set<() => void>;
  /** What each batch of the turn gets: made once per turn, not per batch. */
  entry: TurnEntry;
}

/**
 * One AbortController per turn, shared by that turn's batches. Aborting a turn aborts its calls;
 * a later batch of the same turn starts with a fresh controller.
 *
 * The controller of the turn entered last outlives its batches: a client calling one tool at a
 * time (`quiver serve`, every call in turn 0) reuses it, instead of paying for a new controller and
 * for new abort listeners on every call. Batches watch the abort through the turn's one listener
 * for the same reason (a listener added and removed per batch costs more than a cheap call).
 */
export class TurnSignals {
  readonly #turns = new Map<number, Turn>();
  #latest: number | undefined;

  enter(turn: number): TurnEntry {
    let current = this.#turns.get(turn);
    if (current === undefined) current = this.#open(turn);
    if (turn !== this.#latest) {
      const previous = this.#latest === undefined ? undefined : this.#turns.get(this.#latest);
      if (previous?.batches === 0) this.#turns.delete(this.#latest as number);
      this.#latest = turn;
    }
    current.batches += 1;
    return current.entry;
  }

  #open(turn: number): Turn {
    const controller = new AbortController();
    const watchers = new Set<() => void>();
    const created: Turn = {
      controller,
      batches: 0,
      watchers,
      entry: {
        signal: controller.signal,
        watch(listener) {
          watchers.add(listener);
          return () => watchers.delete(listener);
        },
        leave: () => {
          created.batches -= 1;
          if (created.batches === 0 && turn !== this.#latest && this.#turns.get(turn) === created)
            this.#turns.delete(turn);
        },
      },
    };
    controller.signal.addEventListener(
      'abort',
      () => {
        for (const watcher of [...watchers]) watcher();
        watchers.clear();
      },
      { once: true },
    );
    this.#turns.set(turn, created);
    return created;
  }

  abort(reason: string, turn?: number): void {
    for (const [key, entry] of this.#turns) {
      if (turn !== undefined && key !== turn) continue;
      entry.controller.abort(new Error(reason));
      this.#turns.delete(key);
    }
  }
}
