import type { EventBus, QuiverEvent } from '@quiver/types';
import { isDurableEvent } from '@quiver/types';

export interface InMemoryEventBusOptions {
  /**
   * Most events a stream consumer may fall behind by. Past it, the oldest transient event
   * (start, partial, progress) is dropped first, so a stalled UI cannot grow memory without
   * bound yet still sees every completion. Default 10,000.
   */
  streamBuffer?: number;
}

const DEFAULT_STREAM_BUFFER = 10_000;

/**
 * Fan-out of lifecycle events. Publishing never waits for a subscriber: callbacks run on a
 * microtask and a throwing one is isolated; async iterators buffer per consumer.
 */
export class InMemoryEventBus implements EventBus {
  readonly #listeners = new Set<(event: QuiverEvent) => void>();
  readonly #streamBuffer: number;

  constructor(options: InMemoryEventBusOptions = {}) {
    this.#streamBuffer = Math.max(1, options.streamBuffer ?? DEFAULT_STREAM_BUFFER);
  }

  publish(event: QuiverEvent): void {
    for (const listener of this.#listeners) {
      queueMicrotask(() => {
        try {
          const returned: unknown = listener(event);
          // An async listener's rejection is as isolated as a synchronous throw.
          if (returned instanceof Promise) returned.catch(() => undefined);
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
    const limit = this.#streamBuffer;
    let wake: (() => void) | undefined;
    let done = false;
    const unsubscribe = this.subscribe((event) => {
      buffer.push(event);
      if (buffer.length > limit) {
        const transient = buffer.findIndex((buffered) => !isDurableEvent(buffered));
        buffer.splice(transient >= 0 ? transient : 0, 1);
      }
      wake?.();
    });
    const finish = () => {
      done = true;
      unsubscribe();
      wake?.();
    };
    if (signal?.aborted) finish();
    else signal?.addEventListener('abort', finish, { once: true });
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
        buffer.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}
