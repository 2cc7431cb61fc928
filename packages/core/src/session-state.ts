import type { SessionState } from '@quiver/types';

interface Entry {
  value: unknown;
  dispose: ((value: unknown) => void | Promise<void>) | undefined;
}

/** Session storage kept in memory; `dispose()` runs every disposer of the values still set. */
export class InMemorySessionState implements SessionState {
  readonly #entries = new Map<string, Entry>();

  get<T>(key: string): T | undefined {
    return this.#entries.get(key)?.value as T | undefined;
  }

  /** Replacing a value runs the old value's disposer, so a replaced resource is not leaked. */
  set<T>(key: string, value: T, dispose?: (value: T) => void | Promise<void>): void {
    const previous = this.#entries.get(key);
    this.#entries.set(key, { value, dispose: dispose as Entry['dispose'] });
    if (previous?.dispose && previous.value !== value)
      void Promise.resolve(previous.dispose(previous.value)).catch(() => {});
  }

  delete(key: string): void {
    const previous = this.#entries.get(key);
    this.#entries.delete(key);
    if (previous?.dispose) void Promise.resolve(previous.dispose(previous.value)).catch(() => {});
  }

  /** Runs every disposer (all of them, even when some fail) and empties the state. */
  async dispose(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    const outcomes = await Promise.allSettled(entries.map(async (entry) => entry.dispose?.(entry.value)));
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    if (failures.length > 0)
      throw new AggregateError(failures, `${failures.length} session value disposer(s) failed`);
  }
}
