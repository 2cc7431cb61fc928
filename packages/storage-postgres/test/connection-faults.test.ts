import { connect, createServer, type Server, type Socket } from 'node:net';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { isQuiverError } from '@quiver/types';
import type pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { connectPostgres } from '../src/connect-postgres.js';
import { openPostgresStorageBackend, type PostgresStorageBackend } from '../src/postgres-storage-backend.js';

const MIGRATIONS = {
  sqlite: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'],
  postgres: ['CREATE TABLE notes (id SERIAL PRIMARY KEY, text TEXT NOT NULL)'],
};

/**
 * A TCP relay to PostgreSQL whose `cut()` makes every connection open so far stale: it is
 * dropped when its client next writes, as after a failover or a NAT timeout, where nothing tells
 * an idle pooled connection that it is gone. Connections opened after the cut work.
 */
async function staleningRelay(port: number): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const cutOff = new WeakSet<Socket>();
  const open = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk) => {
      if (cutOff.has(client)) {
        client.destroy();
        upstream.destroy();
      } else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    cut: () => {
      for (const socket of open) cutOff.add(socket);
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

describeWithSystemTools(['postgres', 'initdb'])('connections the server drops', () => {
  const server = usePostgresServer();
  const pools: pg.Pool[] = [];
  const backends: PostgresStorageBackend[] = [];
  const relays: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => {})));
    await Promise.all(backends.splice(0).map((backend) => backend.close().catch(() => {})));
    await Promise.all(relays.splice(0).map((relay) => relay.close()));
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

  it('runs a transaction on a fresh connection when every pooled one turns out stale, never failing with a bare pg error', async () => {
    const url = await server().freshDatabase('stale_pool');
    const relay = await staleningRelay(server().port);
    relays.push(relay);
    const backend = await openPostgresStorageBackend({
      url: url.replace(`:${server().port}/`, `:${relay.port}/`),
      project: 'p',
      userId: 'u',
      maxConnections: 3,
    });
    backends.push(backend);
    const handle = await backend.resolve({
      toolName: 'notes',
      personalityId: 'dev',
      declaration: true,
    } as never);
    const notes = await handle.connect('notes', { scope: 'project', migrations: MIGRATIONS });
    const other = await handle.connect('other', { scope: 'project', migrations: MIGRATIONS });
    // Three pooled connections, each last used by the store `other`: the next transaction on
    // `notes` first points its connection's search_path at its own schema.
    await Promise.all(
      [1, 2, 3].map(() =>
        other.transaction(async (tx) => {
          await tx.run('INSERT INTO notes (text) VALUES (?)', ['warm']);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }),
      ),
    );
    relay.cut();
    const outcome = await notes
      .transaction(async (tx) => {
        await tx.run('INSERT INTO notes (text) VALUES (?)', ['after the cut']);
      })
      .then(
        () => 'committed',
        (error: unknown) => (isQuiverError(error) ? error.code : `bare: ${(error as Error).message}`),
      );
    expect(outcome).toBe('committed');
    expect(await notes.all<{ text: string }>('SELECT text FROM notes')).toEqual([{ text: 'after the cut' }]);

    // Every pooled connection stale again, each already pointed at this store: reads and
    // transactions still go through, on new connections.
    await Promise.all(
      [1, 2, 3].map(() =>
        notes.transaction(async (tx) => {
          await tx.all('SELECT 1');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }),
      ),
    );
    relay.cut();
    await notes.transaction(async (tx) => {
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['after the second cut']);
    });
    relay.cut();
    // A store first opened now migrates its schema on a stale pooled connection, and still opens.
    const third = await handle.connect('third', { scope: 'project', migrations: MIGRATIONS });
    expect(await third.all('SELECT text FROM notes')).toEqual([]);
    relay.cut();
    expect(
      (await notes.all<{ text: string }>('SELECT text FROM notes ORDER BY id')).map((row) => row.text),
    ).toEqual(['after the cut', 'after the second cut']);
  });
});
