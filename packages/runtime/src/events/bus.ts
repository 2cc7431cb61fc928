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
 *
 * The events published in one stretch of synchronous work go out together on one microtask, in
 * order, each to the subscribers it had when it was published: a call publishes several events,
 * and a microtask per event and subscriber cost more than the rest of a cheap call's events.
 */
export class InMemoryEventBus implements EventBus {
  /** Replaced, never changed, when they change: what a publish took stays as it was. */
  #listeners: ReadonlyArray<(event: QuiverEvent) => void> = [];
  readonly #streamBuffer: number;
  #pending: Array<{ event: QuiverEvent; listeners: ReadonlyArray<(event: QuiverEvent) => void> }> = [];
  readonly #deliver = (): void => this.#drain();

  constructor(options: InMemoryEventBusOptions = {}) {
    this.#streamBuffer = Math.max(1, options.streamBuffer ?? DEFAULT_STREAM_BUFFER);
  }

  publish(event: QuiverEvent): void {
    const listeners = this.#listeners;
    if (listeners.length === 0) return;
    if (this.#pending.push({ event, listeners }) === 1) queueMicrotask(this.#deliver);
  }

  #drain(): void {
    // What a listener publishes while this runs goes out in the same pass, after what came before.
    const pending = this.#pending;
    for (let index = 0; index < pending.length; index++) {
      const { event, listeners } = pending[index] as (typeof pending)[number];
      for (const listener of listeners) {
        try {
          const returned: unknown = listener(event);
          // An async listener's rejection is as isolated as a synchronous throw.
          if (returned instanceof Promise) returned.catch(() => undefined);
        } catch {
          // A subscriber's failure must not affect tool execution or other subscribers.
        }
      }
    }
    this.#pending = [];
  }

  subscribe(listener: (event: QuiverEvent) => void): () => void {
    if (!this.#listeners.includes(listener)) this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((subscribed) => subscribed !== listener);
    };
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
