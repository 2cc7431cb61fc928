import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type { PortableMigrations, StorageHandle } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { openPostgresStorageBackend, type PostgresStorageBackend } from '../src/postgres-storage-backend.js';

const NOTES: PortableMigrations = {
  sqlite: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'],
  postgres: [
    'CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, pinned INTEGER NOT NULL DEFAULT 0)',
    "INSERT INTO notes (body) VALUES ('seeded once')",
  ],
};

describeWithSystemTools(['postgres', 'initdb'])('the storage capability on PostgreSQL', () => {
  const server = usePostgresServer();
  const backends: PostgresStorageBackend[] = [];

  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
  });

  async function open(url: string, project = 'team-project'): Promise<PostgresStorageBackend> {
    const backend = await openPostgresStorageBackend({ url, project, userId: 'ada' });
    backends.push(backend);
    return backend;
  }
  async function handle(backend: PostgresStorageBackend, personalityId = 'planner'): Promise<StorageHandle> {
    return backend.resolve({
      capability: 'storage',
      declaration: true,
      toolName: 'notes_add',
      sessionId: 'session-1',
      personalityId,
      agentId: 'main',
    });
  }

  it('gives each personality its own store, as the SQLite files do', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const planner = await (await handle(backend, 'planner')).connect('notes', {
      scope: 'personality',
      migrations: NOTES,
    });
    const writer = await (await handle(backend, 'writer')).connect('notes', {
      scope: 'personality',
      migrations: NOTES,
    });
    await planner.run('INSERT INTO notes (body) VALUES (?)', ['planner only']);
    expect(await writer.all('SELECT body FROM notes ORDER BY id')).toEqual([{ body: 'seeded once' }]);
    expect(await planner.all('SELECT body FROM notes ORDER BY id')).toEqual([
      { body: 'seeded once' },
      { body: 'planner only' },
    ]);
    expect(backend.schemas()).toHaveLength(2);
  });

  it('shares the project store between replicas of one project', async () => {
    const url = await server().freshDatabase('storage');
    const [first, second] = await Promise.all([open(url), open(url)]);
    const one = await (await handle(first!)).connect('notes', { scope: 'project', migrations: NOTES });
    const two = await (await handle(second!)).connect('notes', { scope: 'project', migrations: NOTES });
    await one.run('INSERT INTO notes (body) VALUES (?)', ['from replica one']);
    expect(await two.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 2 });
  });

  it('applies each migration exactly once when several replicas connect at the same time', async () => {
    const url = await server().freshDatabase('storage');
    const replicas = await Promise.all([1, 2, 3, 4].map(() => open(url)));
    const stores = await Promise.all(
      replicas.map(async (backend) =>
        (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES }),
      ),
    );
    expect(await stores[0]!.all('SELECT body FROM notes')).toEqual([{ body: 'seeded once' }]);
  });

  it('returns rows that look like SQLite rows: counts as numbers, booleans as 0/1, no Date objects', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const store = await (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES });
    await store.run('INSERT INTO notes (body, pinned) VALUES (?, ?)', ['pinned', true]);
    const row = await store.get(
      `SELECT count(*) AS n, sum(id) AS total, max(id) AS last, bool_or(pinned = 1) AS any_pinned,
              '2026-01-02T03:04:05Z'::timestamptz AS at FROM notes`,
    );
    expect(row).toEqual({ n: 2, total: 3, last: 2, any_pinned: 1, at: expect.any(String) });
    expect(store.dialect).toBe('postgres');
  });

  it('runs interleaved read-modify-write transactions without losing an increment', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const store = await (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.transaction(async (tx) => {
          const row = await tx.get<{ pinned: number }>('SELECT pinned FROM notes WHERE id = 1 FOR UPDATE');
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.run('UPDATE notes SET pinned = ? WHERE id = 1', [row!.pinned + 1]);
        }),
      ),
    );
    expect(await store.get('SELECT pinned FROM notes WHERE id = 1')).toEqual({ pinned: 20 });
  });

  it('runs a serializable transaction again when it lost a conflict, so both updates land', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const store = await (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES });
    let arrived = 0;
    let bothRead: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    let runs = 0;
    const increment = () =>
      store.transaction(
        async (tx) => {
          runs += 1;
          const row = await tx.get<{ pinned: number }>('SELECT pinned FROM notes WHERE id = 1');
          if (runs <= 2) {
            // Both first attempts read before either writes: one of them must fail to serialize.
            arrived += 1;
            if (arrived === 2) bothRead();
            await barrier;
          }
          await tx.run('UPDATE notes SET pinned = ? WHERE id = 1', [row!.pinned + 1]);
        },
        { isolation: 'serializable' },
      );
    await Promise.all([increment(), increment()]);
    expect(runs).toBeGreaterThan(2);
    expect(await store.get('SELECT pinned FROM notes WHERE id = 1')).toEqual({ pinned: 2 });
  });

  it('rolls a failed transaction back entirely', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const store = await (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES });
    await expect(
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO notes (body) VALUES (?)', ['half done']);
        throw new Error('the second step failed');
      }),
    ).rejects.toThrow('the second step failed');
    expect(await store.all('SELECT body FROM notes')).toEqual([{ body: 'seeded once' }]);
  });

  it('refuses the store itself inside its own transaction and says to use tx', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const store = await (await handle(backend)).connect('notes', { scope: 'project', migrations: NOTES });
    await expect(store.transaction(() => store.all('SELECT 1'))).rejects.toMatchObject({
      fix: expect.stringContaining('through the tx argument'),
    });
  });

  it('tells a plugin using the SQLite-only open() to port to connect()', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const storage = await handle(backend);
    expect(() => storage.open('notes', { scope: 'project', migrations: NOTES.sqlite })).toThrow(
      expect.objectContaining({ code: 'not_available', fix: expect.stringContaining('storage.connect') }),
    );
  });

  it('refuses a scope the tool did not declare and a name that cannot name a store', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const storage = await backend.resolve({
      capability: 'storage',
      declaration: { scopes: ['personality'] },
      toolName: 'notes_add',
      sessionId: 'session-1',
      personalityId: 'planner',
      agentId: 'main',
    });
    await expect(storage.connect('notes', { scope: 'project', migrations: NOTES })).rejects.toMatchObject({
      code: 'not_permitted',
    });
    await expect(
      storage.connect('../notes', { scope: 'personality', migrations: NOTES }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });

  it('keeps the previous version when a migration fails and names the migration', async () => {
    const backend = await open(await server().freshDatabase('storage'));
    const storage = await handle(backend);
    const broken: PortableMigrations = {
      sqlite: [],
      postgres: [...NOTES.postgres, 'ALTER TABLE no_such_table ADD x INT'],
    };
    await expect(storage.connect('notes', { scope: 'project', migrations: broken })).rejects.toThrow(
      /Migration 3 of the store notes/,
    );
    const store = await storage.connect('notes', { scope: 'project', migrations: NOTES });
    expect(await store.all('SELECT body FROM notes')).toEqual([{ body: 'seeded once' }]);
  });
});
