import { expect, it } from 'vitest';
import { type EventBus, type QuiverEvent, subscribeToTypes } from '../src/index.js';

/** An embedder's bus written before typed subscriptions: every listener gets every event. */
function untypedBus(): EventBus & { asked: unknown[] } {
  const listeners = new Set<(event: QuiverEvent) => void>();
  const asked: unknown[] = [];
  return {
    asked,
    publish: (event) => {
      for (const listener of listeners) listener(event);
    },
    subscribe: (listener: (event: QuiverEvent) => void, types?: readonly string[]) => {
      asked.push(types);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stream: () => {
      throw new Error('not used');
    },
  };
}

const event = (type: 'session.warning' | 'tools.list_changed', id: string) =>
  ({
    type,
    id,
    sessionId: 's1',
    timestamp: 0,
    ...(type === 'session.warning' ? { code: 'x', message: id } : { server: 'srv' }),
  }) as unknown as QuiverEvent;

it('gives the listener only the named types on a bus that ignores them, and names them to the bus', () => {
  const bus = untypedBus();
  const got: string[] = [];
  const unsubscribe = subscribeToTypes(bus, ['session.warning'], (warning) => got.push(warning.message));
  bus.publish(event('tools.list_changed', 'a'));
  bus.publish(event('session.warning', 'b'));
  unsubscribe();
  bus.publish(event('session.warning', 'c'));
  expect(got).toEqual(['b']);
  expect(bus.asked).toEqual([['session.warning']]);
});
