import { Database } from '@quiver/test-storage/drivers';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import type { QuiverEvent } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import type { WriteBehindChannel } from '../src/contracts.js';
import { SqliteSessionEventLog } from '../src/log/sqlite-session-event-log.js';
import { removeTempDirs, tempDir } from './fixtures/lifecycle-harness.js';

const logs: SqliteSessionEventLog[] = [];

afterEach(async () => {
  for (const log of logs.splice(0)) log.close();
  await removeTempDirs();
});

async function openChannel(): Promise<{
  log: SqliteSessionEventLog;
  channel: WriteBehindChannel;
  path: string;
}> {
  const dataDir = await tempDir('quiver-data-');
  const log = new SqliteSessionEventLog({ dataDir, sqlite: sqliteBackend });
  logs.push(log);
  log.beginSession({ id: 's1' });
  const failures: Error[] = [];
  const channel = log.openWriteBehind((error) => failures.push(error));
  if (channel === undefined) throw new Error('the log has no writer thread');
  return { log, channel, path: `${dataDir}/sessions.db` };
}

function rows<Row>(path: string, sql: string): Row[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}

const at = 1_700_000_000_000;

describe("the session log's writer thread", () => {
  it('stores each event as the text JSON.stringify gives it, whatever characters and numbers it holds', async () => {
    const { channel, path } = await openChannel();
    const awkward = {
      text: 'quote " comma , brackets ]},{[ backslash \\ newline \n tab \t',
      unicode: 'é ü 中文 😀',
      loneSurrogate: '\ud800 and \udfff',
      numbers: [1e21, -0, 0.1, 5e-324, Number.MAX_SAFE_INTEGER],
      '10': 'integer-like keys come first',
      '2': 'in ascending order',
      nested: { deeper: [{ empty: {} }, [], null, true] },
    };
    const events = [
      { id: 'e1', sessionId: 's1', timestamp: at, type: 'session.info', message: 'plain' },
      {
        id: 'e2',
        sessionId: 's1',
        timestamp: at + 1,
        type: 'session.warning',
        message: JSON.stringify(awkward),
      },
      {
        id: 'e3',
        sessionId: 's1',
        timestamp: at + 2,
        type: 'tool.user_requested',
        callId: 'c1',
        toolName: 'echo',
        arguments: awkward,
        turn: 0,
      },
    ] as unknown as QuiverEvent[];
    channel.write(events.slice(0, 1));
    const last = channel.write(events.slice(1));
    await channel.written(last);
    const stored = rows<{ id: string; data: string }>(path, 'SELECT id, data FROM events ORDER BY seq');
    expect(stored.map((row) => row.id)).toEqual(['e1', 'e2', 'e3']);
    expect(stored.map((row) => row.data)).toEqual(events.map((event) => JSON.stringify(event)));
  });

  it('keeps every event and the final row of a call whose start and completion were handed over in separate writes', async () => {
    const { log, channel, path } = await openChannel();
    const requested = {
      id: 'r1',
      sessionId: 's1',
      timestamp: at,
      type: 'tool.user_requested',
      callId: 'long',
      toolName: 'build',
      arguments: { target: 'all' },
      turn: 3,
    };
    const start = { ...requested, id: 'r2', type: 'tool.execution_start', timestamp: at + 1 };
    const progress = {
      id: 'r3',
      sessionId: 's1',
      timestamp: at + 2,
      type: 'tool.execution_progress',
      callId: 'long',
      progress: 1,
    };
    const complete = {
      id: 'r4',
      sessionId: 's1',
      timestamp: at + 40,
      type: 'tool.execution_complete',
      callId: 'long',
      toolName: 'build',
      success: false,
      result: { ok: false, code: 'build_failed', error: 'two errors', structured: { errors: 2 } },
      durationMs: 38.6,
      turn: 3,
    };
    // Three writes that go to the thread together, as a call that outlives the start's hand-over does.
    channel.write([requested, start] as unknown as QuiverEvent[]);
    channel.write([progress] as unknown as QuiverEvent[]);
    const last = channel.write([complete] as unknown as QuiverEvent[]);
    await channel.written(last);

    expect(rows(path, 'SELECT id, type, call_id FROM events ORDER BY seq')).toEqual([
      { id: 'r1', type: 'tool.user_requested', call_id: 'long' },
      { id: 'r4', type: 'tool.execution_complete', call_id: 'long' },
    ]);
    expect(rows(path, 'SELECT * FROM calls')).toEqual([
      {
        session_id: 's1',
        call_id: 'long',
        tool: 'build',
        args: '{"target":"all"}',
        turn: 3,
        started_at: at + 1,
        completed_at: at + 40,
        status: 'error',
        code: 'build_failed',
        duration_ms: 39,
        structured: '{"errors":2}',
        replica: null,
      },
    ]);
    expect(await log.sessionCalls('s1')).toMatchObject([
      { callId: 'long', toolName: 'build', status: 'error', code: 'build_failed', turn: 3 },
    ]);
  });
});
