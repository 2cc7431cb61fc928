import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { connectPostgres } from '../src/connect-postgres.js';
import { openPostgresStorageBackend, type PostgresStorageBackend } from '../src/postgres-storage-backend.js';

const MIGRATIONS = {
  sqlite: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'],
  postgres: ['CREATE TABLE notes (id SERIAL PRIMARY KEY, text TEXT NOT NULL)'],
};

describeWithSystemTools(['postgres', 'initdb'])('connections the server drops', () => {
  const server = usePostgresServer();
  const pools: pg.Pool[] = [];
  const backends: PostgresStorageBackend[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => {})));
    await Promise.all(backends.splice(0).map((backend) => backend.close().catch(() => {})));
  });

  /** What an operator's restart or a failover does to every connection but the one asking. */
  const terminateOthers = (url: string) =>
    server().query(
      url,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );

  it('survives a checked-out connection being terminated, and the pool keeps serving', async () => {
    const url = await server().freshDatabase('dropped_checkout');
    const pool = await connectPostgres({ url });
    pools.push(pool);
    const client = await pool.connect();
    // Without a listener on the checked-out client, this 'error' event ended the process.
    await terminateOthers(url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('runs store reads and transactions again on a new connection after their connections were dropped', async () => {
    const url = await server().freshDatabase('dropped_store');
    const backend = await openPostgresStorageBackend({ url, project: 'p', userId: 'u', maxConnections: 3 });
    backends.push(backend);
    const handle = await backend.resolve({
      toolName: 'notes',
      personalityId: 'dev',
      declaration: true,
    } as never);
    const store = await handle.connect('notes', { scope: 'project', migrations: MIGRATIONS });
    await store.run('INSERT INTO notes (text) VALUES (?)', ['first']);
    await terminateOthers(url);
    expect(await store.all<{ text: string }>('SELECT text FROM notes')).toEqual([{ text: 'first' }]);
    await terminateOthers(url);
    await store.transaction(async (tx) => {
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['second']);
    });
    expect(
      (await store.all<{ text: string }>('SELECT text FROM notes ORDER BY id')).map((row) => row.text),
    ).toEqual(['first', 'second']);
  });
});
