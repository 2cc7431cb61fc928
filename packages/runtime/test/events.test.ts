import { setTimeout as sleep } from 'node:timers/promises';
import type { QuiverEvent } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventBus } from '../src/events/bus.js';
import { createEventFactory } from '../src/events/event-factory.js';
import { createHarness, type Harness, removeTempDirs } from './fixtures/lifecycle-harness.js';
import { echoTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
const stops: AbortController[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop.abort();
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

function stopper(): AbortController {
  const controller = new AbortController();
  stops.push(controller);
  return controller;
}

const makeEvent = createEventFactory('bus-session');
const info = (message: string) => makeEvent('session.info', { message });

describe('InMemoryEventBus', () => {
  it('delivers events to a stream consumer in publication order', async () => {
    const bus = new InMemoryEventBus();
    const stop = stopper();
    const stream = bus.stream(stop.signal);
    bus.publish(info('one'));
    bus.publish(info('two'));
    bus.publish(info('three'));
    const received: string[] = [];
    for await (const event of stream) {
      if (event.type === 'session.info') received.push(event.message);
      if (received.length === 3) break;
    }
    expect(received).toEqual(['one', 'two', 'three']);
  });

  it('ends a stream when its signal aborts', async () => {
    const bus = new InMemoryEventBus();
    const stop = stopper();
    const stream = bus.stream(stop.signal);
    const next = stream.next();
    stop.abort();
    expect(await next).toEqual({ value: undefined, done: true });
  });

  it('drops the oldest progress events, never completions, when a stream consumer falls too far behind', async () => {
    const bus = new InMemoryEventBus({ streamBuffer: 3 });
    const stop = stopper();
    const stream = bus.stream(stop.signal);
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 1 }));
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 2 }));
    bus.publish(info('durable one'));
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 3 }));
    bus.publish(info('durable two'));
    await sleep(0);
    stop.abort();
    const received: string[] = [];
    for await (const event of stream) {
      received.push(
        event.type === 'session.info'
          ? event.message
          : event.type === 'tool.execution_progress'
            ? `progress ${event.progress}`
            : event.type,
      );
    }
    expect(received).toEqual(['durable one', 'progress 3', 'durable two']);
  });

  it('keeps delivering to other subscribers when one throws', async () => {
    const bus = new InMemoryEventBus();
    const received: QuiverEvent[] = [];
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    bus.subscribe((event) => received.push(event));
    bus.publish(info('still here'));
    await sleep(0);
    expect(received).toHaveLength(1);
  });

  it('stops delivering to a subscriber after it unsubscribes', async () => {
    const bus = new InMemoryEventBus();
    const received: QuiverEvent[] = [];
    const unsubscribe = bus.subscribe((event) => received.push(event));
    bus.publish(info('before'));
    await sleep(0);
    unsubscribe();
    bus.publish(info('after'));
    await sleep(0);
    expect(received.map((event) => event.type === 'session.info' && event.message)).toEqual(['before']);
  });

  it('delivers after the publisher’s synchronous work, in order, each event to the subscribers it had then', async () => {
    const bus = new InMemoryEventBus();
    const early: string[] = [];
    const late: string[] = [];
    const messageOf = (event: QuiverEvent) => (event.type === 'session.info' ? event.message : event.type);
    bus.subscribe((event) => {
      early.push(messageOf(event));
      // What a subscriber publishes goes out after what was already published.
      if (messageOf(event) === 'one') bus.publish(info('from a subscriber'));
    });
    bus.publish(info('one'));
    bus.subscribe((event) => late.push(messageOf(event)));
    bus.publish(info('two'));
    bus.subscribe(() => {
      throw new Error('a subscriber that throws');
    });
    bus.publish(info('three'));
    // Nothing is delivered while the publisher is still running.
    expect(early).toEqual([]);
    await sleep(0);
    expect(early).toEqual(['one', 'two', 'three', 'from a subscriber']);
    expect(late).toEqual(['two', 'three', 'from a subscriber']);
    bus.publish(info('four'));
    await sleep(0);
    expect(early.at(-1)).toBe('four');
  });

  it('gives a subscriber that names event types those events only, in order among the others', async () => {
    const bus = new InMemoryEventBus();
    const order: string[] = [];
    const warnings: string[] = [];
    bus.subscribe((event) => order.push(`all ${event.type}`));
    bus.subscribe(
      (event) => {
        // Narrowed by the types it named: no check of `event.type` needed.
        warnings.push(event.message);
        order.push(`typed ${event.type}`);
      },
      ['session.warning'],
    );
    bus.subscribe((event) => order.push(`after ${event.type}`));
    bus.publish(info('not for the typed one'));
    bus.publish(makeEvent('session.warning', { code: 'log_gap', message: 'a warning' }));
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 1 }));
    await sleep(0);
    expect(warnings).toEqual(['a warning']);
    expect(order).toEqual([
      'all session.info',
      'after session.info',
      'all session.warning',
      'typed session.warning',
      'after session.warning',
      'all tool.execution_progress',
      'after tool.execution_progress',
    ]);
  });

  it('delivers an event of a type only typed subscribers took to those that named it, and again after they change', async () => {
    const bus = new InMemoryEventBus();
    const received: string[] = [];
    const stop = bus.subscribe(
      (event) => received.push(`progress ${event.progress}`),
      ['tool.execution_progress'],
    );
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 1 }));
    // Nobody takes these: nothing is queued for them.
    bus.publish(info('nobody'));
    await sleep(0);
    const late = bus.subscribe((event) => received.push(`late ${event.type}`), ['session.info']);
    bus.publish(info('now someone'));
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 2 }));
    await sleep(0);
    stop();
    bus.publish(makeEvent('tool.execution_progress', { callId: 'c1', progress: 3 }));
    late();
    bus.publish(info('gone'));
    await sleep(0);
    expect(received).toEqual(['progress 1', 'late session.info', 'progress 2']);
  });
});

describe('a bus forwarding to another (a session to its host)', () => {
  it('publishes every event on the other bus as well until the forwarding ends', async () => {
    const session = new InMemoryEventBus();
    const host = new InMemoryEventBus();
    const onHost: string[] = [];
    const onSession: string[] = [];
    host.subscribe((event) => onHost.push(event.type === 'session.info' ? event.message : event.type));
    session.subscribe((event) => onSession.push(event.type === 'session.info' ? event.message : event.type));
    const stop = session.forwardTo(host);
    session.publish(info('one'));
    host.publish(info('the host’s own'));
    session.publish(info('two'));
    await sleep(0);
    stop();
    session.publish(info('not forwarded'));
    await sleep(0);
    expect(onHost).toEqual(['one', 'the host’s own', 'two']);
    expect(onSession).toEqual(['one', 'two', 'not forwarded']);
  });

  it('publishes on its own subscribers when the other bus throws', async () => {
    const session = new InMemoryEventBus();
    const received: QuiverEvent[] = [];
    session.subscribe((event) => received.push(event));
    session.forwardTo({
      publish: () => {
        throw new Error('an embedder’s bus that fails');
      },
      subscribe: () => () => undefined,
      stream: () => new InMemoryEventBus().stream(AbortSignal.abort()),
    });
    expect(() => session.publish(info('still published'))).not.toThrow();
    await sleep(0);
    expect(received).toHaveLength(1);
  });
});

describe('slow subscribers', () => {
  it('does not hold up a call when a callback subscriber awaits 10 s per event', async () => {
    const h = await createHarness({ tools: [echoTool] });
    harnesses.push(h);
    const stop = stopper();
    let handled = 0;
    h.bus.subscribe(async () => {
      await sleep(10_000, undefined, { signal: stop.signal }).catch(() => undefined);
      handled += 1;
    });
    const [result] = await h.run([{ name: 'echo', args: { text: 'not blocked' } }]);
    expect(result).toMatchObject({ ok: true, value: 'not blocked' });
    expect(handled).toBe(0);
  });

  it('does not hold up a call when a stream consumer awaits 10 s per event, and the consumer still gets every event', async () => {
    const h = await createHarness({ tools: [echoTool] });
    harnesses.push(h);
    const stop = stopper();
    const consumed: string[] = [];
    const consumer = (async () => {
      for await (const event of h.bus.stream(stop.signal)) {
        consumed.push(event.type);
        await sleep(10_000, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    })();
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'fast' } }]);
    expect(result).toMatchObject({ ok: true, value: 'fast' });
    expect(consumed).toEqual(['tool.user_requested']);
    stop.abort();
    await consumer;
    expect(consumed).toEqual([
      'tool.user_requested',
      'tool.execution_start',
      'tool.execution_partial_result',
      'tool.execution_progress',
      'tool.execution_complete',
    ]);
  });
});
