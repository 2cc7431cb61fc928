import path from 'node:path';
import { openSqliteHostStore } from '@quiver/test-storage/sqlite';
import type { QuiverEvent } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { SESSION_LOG_MIGRATIONS } from '../src/log/schema.js';
import { SharedSessionEventLog } from '../src/log/shared-session-event-log.js';
import { createHarness, type Harness, removeTempDirs, tempDir } from './fixtures/lifecycle-harness.js';
import { echoTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
const closers: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
  for (const close of closers.splice(0)) close();
  await removeTempDirs();
});

/** SQLite has no replicas: a process's own calls are never another's orphans (a stand-in for the lease). */
const soleReplica = { id: 'this-host', deadCondition: () => ({ sql: '1 = 0', params: [] }) };

it('keeps the shared log on SQLite as it does on PostgreSQL: calls, their arguments and the events a gap lost', async () => {
  const dataDir = await tempDir('quiver-shared-log-');
  const store = openSqliteHostStore(
    path.join(dataDir, 'shared-log.db'),
    'session-log',
    SESSION_LOG_MIGRATIONS,
  );
  closers.push(() => store.close());
  const log = new SharedSessionEventLog({ store, replica: soleReplica });
  const harness = await createHarness({ tools: [echoTool], sharedLog: log, sessionId: 'local' });
  harnesses.push(harness);
  await harness.run([{ id: 'call-1', name: 'echo', args: { text: 'hello' } }], { turn: 1 });
  log.appendAll([
    {
      id: 'gap-1',
      sessionId: 'local',
      timestamp: Date.now(),
      type: 'session.warning',
      code: 'log_gap',
      message: 'lost',
      lostEvents: 3,
    } as unknown as QuiverEvent,
  ]);
  await log.flushed();
  const calls = await log.sessionCalls('local');
  expect(calls.map((call) => [call.callId, call.toolName, call.status, call.args])).toEqual([
    ['call-1', 'echo', 'ok', { text: 'hello' }],
  ]);
  const [summary] = await log.recentSessions();
  expect(summary).toMatchObject({ id: 'local', calls: 1, failedCalls: 0, lostEvents: 3 });
  expect(await log.recoverOrphans('local')).toEqual([]);
});
