/**
 * One AbortController per turn, shared by that turn's batches. Aborting a turn aborts its calls;
 * a later batch of the same turn starts with a fresh controller.
 */
export class TurnSignals {
  readonly #turns = new Map<number, { controller: AbortController; batches: number }>();

  enter(turn: number): { signal: AbortSignal; leave(): void } {
    let entry = this.#turns.get(turn);
    if (entry === undefined) {
      entry = { controller: new AbortController(), batches: 0 };
      this.#turns.set(turn, entry);
    }
    entry.batches += 1;
    const current = entry;
    return {
      signal: current.controller.signal,
      leave: () => {
        current.batches -= 1;
        if (current.batches === 0 && this.#turns.get(turn) === current) this.#turns.delete(turn);
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
