import type { EventBus, QuiverEvent, QuiverEventOf, QuiverEventType } from '@quiver/types';
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

type Listener = (event: QuiverEvent) => void;

/** One `subscribe`: its listener, and the event types it takes (all when undefined). */
interface Subscription {
  listener: Listener;
  types: ReadonlySet<string> | undefined;
}

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
  #subscriptions: readonly Subscription[] = [];
  /**
   * Per event type, the listeners its events go to, in the order they subscribed: worked out on
   * the type's first publish after a change of subscribers, so a publish is one lookup and a
   * type nobody takes costs nothing more.
   */
  readonly #byType = new Map<string, readonly Listener[]>();
  readonly #streamBuffer: number;
  /** Buses that every event published here goes to as well (forwardTo). */
  #forwards: readonly EventBus[] = [];
  #pending: Array<{ event: QuiverEvent; listeners: readonly Listener[] }> = [];
  readonly #deliver = (): void => this.#drain();

  constructor(options: InMemoryEventBusOptions = {}) {
    this.#streamBuffer = Math.max(1, options.streamBuffer ?? DEFAULT_STREAM_BUFFER);
  }

  publish(event: QuiverEvent): void {
    for (const bus of this.#forwards) {
      try {
        bus.publish(event);
      } catch {
        // Another bus failing (an embedder's own) must not affect the call that published.
      }
    }
    const listeners = this.#listenersOf(event.type);
    if (listeners.length === 0) return;
    if (this.#pending.push({ event, listeners }) === 1) queueMicrotask(this.#deliver);
  }

  /**
   * Publishes every event published here on `bus` too, as it is published, until the returned
   * function is called (a session's events on its host's bus). Unlike a subscriber that publishes
   * what it gets, this costs nothing per event that `bus` has no subscriber for.
   */
  forwardTo(bus: EventBus): () => void {
    this.#forwards = [...this.#forwards, bus];
    return () => {
      this.#forwards = this.#forwards.filter((forward) => forward !== bus);
    };
  }

  #listenersOf(type: string): readonly Listener[] {
    let listeners = this.#byType.get(type);
    if (listeners === undefined) {
      listeners = this.#subscriptions
        .filter((subscription) => subscription.types === undefined || subscription.types.has(type))
        .map((subscription) => subscription.listener);
      this.#byType.set(type, listeners);
    }
    return listeners;
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

  /**
   * `types`, when given, are the only events the listener takes. A listener already subscribed
   * is not subscribed again (its first subscription stands); the returned function ends it.
   */
  subscribe(listener: Listener): () => void;
  subscribe<T extends QuiverEventType>(
    listener: (event: QuiverEventOf<T>) => void,
    types: readonly T[],
  ): () => void;
  subscribe(listener: Listener, types?: readonly string[]): () => void {
    if (!this.#subscriptions.some((subscription) => subscription.listener === listener)) {
      this.#subscriptions = [
        ...this.#subscriptions,
        { listener, types: types === undefined ? undefined : new Set(types) },
      ];
      this.#byType.clear();
    }
    return () => {
      this.#subscriptions = this.#subscriptions.filter((subscription) => subscription.listener !== listener);
      this.#byType.clear();
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
