import { defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { SqliteSessionEventLog } from '../src/log/sqlite-session-event-log.js';
import { createHarness, type Harness, removeTempDirs } from './fixtures/lifecycle-harness.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

/** Takes any arguments, as an MCP or external tool does: what it is given may not be JSON. */
const countTool = defineTool({
  name: 'count',
  description: 'Counts its arguments.',
  input: z.looseObject({}),
  capabilities: {},
  execute: (args) => ok(`${Object.keys(args).length} arguments`),
});

describe('a session log given events it cannot write', () => {
  it('still runs the call, warns that the log could not record it, and records the calls after it', async () => {
    const h = await createHarness({ tools: [countTool], withLog: true, sessionId: 'big-numbers' });
    harnesses.push(h);

    const [first] = await h.run([{ id: 'big', name: 'count', args: { amount: 10n } }]);
    expect(first).toEqual({ ok: true, value: '1 arguments' });
    await vi.waitFor(
      () => {
        const warning = h.events.find((event) => event.type === 'session.warning');
        expect(warning).toMatchObject({
          code: 'log_write_failed',
          message: expect.stringMatching(/BigInt/i),
        });
      },
      { timeout: 10_000, interval: 10 },
    );

    await h.run([{ id: 'plain', name: 'count', args: { amount: 10 } }]);
    const calls = await (h.log as SqliteSessionEventLog).sessionCalls('big-numbers');
    expect(calls.map((call) => [call.callId, call.status])).toEqual([['plain', 'ok']]);
  });
});
