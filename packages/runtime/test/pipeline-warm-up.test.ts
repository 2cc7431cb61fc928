import { defineTool, ok, type ToolHook } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultHookRegistry } from '../src/lifecycle/hook-registry.js';
import type { SqliteSessionEventLog } from '../src/log/sqlite-session-event-log.js';
import { createHarness, type Harness, removeTempDirs } from './fixtures/lifecycle-harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

describe('the call pipeline warm-up', () => {
  it('runs no tool, hook or permission prompt and leaves no event or log row; the first call after it runs and is logged alone', async () => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 'note',
      description: 'Records that it ran.',
      input: z.object({ text: z.string() }),
      capabilities: {},
      execute: ({ text }) => {
        ran.push(text);
        return ok(text);
      },
    });
    const hooks = new DefaultHookRegistry();
    const hooked: string[] = [];
    const everyCall: ToolHook = {
      event: 'preToolUse',
      name: 'every-call',
      run: (call) => {
        hooked.push(call.toolName);
        return undefined;
      },
    };
    hooks.register(everyCall);
    const asked: string[] = [];
    const h = await createHarness({
      tools: [tool],
      hooks,
      withLog: true,
      sessionId: 'warmed',
      // Nothing is allowed by a rule: a call would ask the resolver.
      permissions: {},
      resolver: {
        resolve: async (prompt) => {
          asked.push(prompt.toolName);
          return { behavior: 'allow', scope: 'once' };
        },
      },
    });
    harnesses.push(h);

    await h.executor.warmUp?.(undefined);
    await h.executor.warmUp?.(h.pool);
    await h.settle();
    expect(h.events).toEqual([]);
    expect({ ran, hooked, asked }).toEqual({ ran: [], hooked: [], asked: [] });

    const [result] = await h.run([{ id: 'first', name: 'note', args: { text: 'hello' } }]);
    expect(result).toMatchObject({ ok: true, value: 'hello' });
    expect({ ran, hooked, asked }).toEqual({ ran: ['hello'], hooked: ['note'], asked: ['note'] });
    await h.settle();
    expect(new Set(h.events.map((event) => ('callId' in event ? event.callId : event.type)))).toEqual(
      new Set(['first']),
    );
    const log = h.log as SqliteSessionEventLog;
    expect((await log.sessionCalls('warmed')).map((call) => call.callId)).toEqual(['first']);
    const logged = await log.sessionEvents('warmed');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((event) => 'callId' in event && event.callId === 'first')).toBe(true);
  });
});
