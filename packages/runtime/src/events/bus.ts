import type { EventBus, QuiverEvent } from '@quiver/types';

/**
 * Fan-out of lifecycle events. Publishing never waits for a subscriber: callbacks run on a
 * microtask and a throwing one is isolated; async iterators buffer per consumer.
 */
export class InMemoryEventBus implements EventBus {
  readonly #listeners = new Set<(event: QuiverEvent) => void>();

  publish(event: QuiverEvent): void {
    for (const listener of this.#listeners) {
      queueMicrotask(() => {
        try {
          listener(event);
        } catch {
          // A subscriber's failure must not affect tool execution or other subscribers.
        }
      });
    }
  }

  subscribe(listener: (event: QuiverEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stream(signal?: AbortSignal): AsyncIterableIterator<QuiverEvent> {
    const buffer: QuiverEvent[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const unsubscribe = this.subscribe((event) => {
      buffer.push(event);
      wake?.();
    });
    const finish = () => {
      done = true;
      unsubscribe();
      wake?.();
    };
    signal?.addEventListener('abort', finish, { once: true });
    const iterator: AsyncIterableIterator<QuiverEvent> = {
      async next() {
        while (buffer.length === 0 && !done) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        const event = buffer.shift();
        return event ? { value: event, done: false } : { value: undefined, done: true };
      },
      async return() {
        finish();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}
