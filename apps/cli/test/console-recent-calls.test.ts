import type { QuiverEvent } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { ConsoleHub } from '../src/console/console-hub.js';

/** A session as the hub follows it: its id and its events. */
function session(id: string) {
  const listeners = new Set<(event: QuiverEvent) => void>();
  return {
    id,
    events: {
      subscribe(listener: (event: QuiverEvent) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    emit: (event: Record<string, unknown>) => {
      for (const listener of listeners) listener({ sessionId: id, ...event } as unknown as QuiverEvent);
    },
  };
}

describe('the console’s recent calls', () => {
  it('keeps the last 300 calls, oldest first, and updates a kept call in place', async () => {
    const hub = new ConsoleHub({ askTimeoutMs: 1_000 });
    const watched = session('s1');
    hub.watchSession(watched, { transport: 'stdio' } as Parameters<ConsoleHub['watchSession']>[1]);
    for (let index = 0; index < 1_000; index += 1)
      watched.emit({ type: 'tool.user_requested', callId: `call-${index}`, toolName: 'echo', arguments: {} });
    // A later event of a kept call adds no record.
    watched.emit({ type: 'tool.user_requested', callId: 'call-999', toolName: 'echo', arguments: {} });
    const calls = (await hub.snapshot()).calls;
    expect(calls).toHaveLength(300);
    expect(calls.map((call) => call.callId)).toEqual(
      Array.from({ length: 300 }, (_, index) => `call-${700 + index}`),
    );
    expect(calls[0]).toMatchObject({ toolName: 'echo', status: 'running' });
  });
});
