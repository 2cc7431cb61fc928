import { openSharedDatabase, type SharedDatabase } from '@quiver/test-storage/postgres';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type { QuiverEvent } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { SESSION_LOG_MIGRATIONS } from '../src/log/schema.js';
import { SharedSessionEventLog } from '../src/log/shared-session-event-log.js';

describeWithSystemTools(['postgres', 'initdb'])('the PostgreSQL session log across an outage', () => {
  const server = usePostgresServer();
  const databases: SharedDatabase[] = [];

  afterEach(async () => {
    await Promise.all(databases.splice(0).map((database) => database.close().catch(() => {})));
  });

  const events = (sessionId: string, names: string[]): QuiverEvent[] =>
    names.map(
      (name) =>
        ({
          id: `${sessionId}-${name}`,
          sessionId,
          timestamp: Date.now(),
          type: 'session.info',
          message: name,
        }) as QuiverEvent,
    );

  it('holds writes while the database is down, writes them once it is back, and counts what is past the bound', async () => {
    const url = await server().createDatabase('log_outage');
    const database = await openSharedDatabase({
      url,
      project: 'test',
      reconnectPatienceMs: 300,
      leaseMs: 60_000,
    });
    databases.push(database);
    const log = new SharedSessionEventLog({
      store: await database.openStore('session-log', SESSION_LOG_MIGRATIONS),
      replica: database.replica!,
      queueLimits: { events: 5, bytes: 1_000_000 },
    });
    const failures: Array<{ message: string; lost: number | undefined }> = [];
    const channel = log.openWriteBehind((error, _busy, lost) =>
      failures.push({ message: error.message, lost }),
    );
    if (channel === undefined) throw new Error('the PostgreSQL log always hands writes over');

    channel.write(events('s', ['before']));
    await log.flushed();
    await server().pause();
    try {
      channel.write(events('s', ['a1', 'a2']));
      // The first write has found the database unreachable before the others are handed over.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      channel.write(events('s', ['b1', 'b2']));
      channel.write(events('s', ['c1', 'c2']));
      channel.write(events('s', ['d1']));
    } finally {
      await server().resume();
    }
    await log.flushed();

    const stored = (await log.sessionEvents('s')).map((event) => (event as { message?: string }).message);
    expect(stored).toEqual(['before', 'a1', 'a2', 'b1', 'b2', 'd1']);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.lost).toBe(2);
    expect(failures[0]!.message).toContain('unreachable');
  }, 60_000);
});
