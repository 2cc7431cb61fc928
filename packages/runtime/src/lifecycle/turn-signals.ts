/**
 * One AbortController per turn, shared by that turn's batches. Aborting a turn aborts its calls;
 * a later batch of the same turn starts with a fresh controller.
 *
 * The controller of the turn entered last outlives its batches: a client calling one tool at a
 * time (`quiver serve`, every call in turn 0) reuses it, instead of paying for a new controller and
 * for new abort listeners (core links its calls with one listener per signal) on every call.
 */
export class TurnSignals {
  readonly #turns = new Map<number, { controller: AbortController; batches: number }>();
  #latest: number | undefined;

  enter(turn: number): { signal: AbortSignal; leave(): void } {
    let entry = this.#turns.get(turn);
    if (entry === undefined) {
      entry = { controller: new AbortController(), batches: 0 };
      this.#turns.set(turn, entry);
    }
    if (turn !== this.#latest) {
      const previous = this.#latest === undefined ? undefined : this.#turns.get(this.#latest);
      if (previous?.batches === 0) this.#turns.delete(this.#latest as number);
      this.#latest = turn;
    }
    entry.batches += 1;
    const current = entry;
    return {
      signal: current.controller.signal,
      leave: () => {
        current.batches -= 1;
        if (current.batches === 0 && turn !== this.#latest && this.#turns.get(turn) === current)
          this.#turns.delete(turn);
      },
    };
  }

  abort(reason: string, turn?: number): void {
    for (const [key, entry] of this.#turns) {
      if (turn !== undefined && key !== turn) continue;
      entry.controller.abort(new Error(reason));
      this.#turns.delete(key);
    }
  }
}
