import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortableMigrations, SqlStore } from '@quiver/types';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createStorageBackend, openSqliteHostStore, type SqliteStorageBackend } from '../src/index.js';

const COUNTERS: PortableMigrations = {
  sqlite: [
    'CREATE TABLE counters (id INTEGER PRIMARY KEY, value INTEGER NOT NULL, flag INTEGER NOT NULL DEFAULT 0, data BLOB)',
    'INSERT INTO counters (id, value) VALUES (1, 0)',
  ],
  postgres: [],
};

let dataDir: string;
let backend: SqliteStorageBackend;

async function connect(personalityId = 'planner'): Promise<SqlStore> {
  const storage = await backend.resolve({
    capability: 'storage',
    declaration: true,
    toolName: 'counter',
    sessionId: 'session-1',
    personalityId,
    agentId: 'main',
  });
  return storage.connect('counters', { scope: 'personality', migrations: COUNTERS });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quiver-sql-store-'));
  backend = createStorageBackend({ dataDir, userId: 'ada' });
});
afterEach(async () => {
  backend.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('runs interleaved read-modify-write transactions one after another, losing no increment', async () => {
  const store = await connect();
  await Promise.all(
    Array.from({ length: 25 }, () =>
      store.transaction(async (tx) => {
        const row = await tx.get<{ value: number }>('SELECT value FROM counters WHERE id = 1');
        await tick();
        await tx.run('UPDATE counters SET value = ? WHERE id = 1', [row!.value + 1]);
      }),
    ),
  );
  expect(await store.get('SELECT value FROM counters WHERE id = 1')).toEqual({ value: 25 });
});

it('keeps a statement issued while a transaction awaits out of that transaction', async () => {
  const store = await connect();
  const failing = store.transaction(async (tx) => {
    await tx.run('UPDATE counters SET value = 100 WHERE id = 1');
    await tick();
    throw new Error('the transaction failed after an await');
  });
  const outside = store.run('INSERT INTO counters (id, value) VALUES (2, 7)');
  await expect(failing).rejects.toThrow('the transaction failed after an await');
  await outside;
  expect(await store.all('SELECT id, value FROM counters ORDER BY id')).toEqual([
    { id: 1, value: 0 },
    { id: 2, value: 7 },
  ]);
});

it('stores booleans as 0/1 and byte arrays as blobs', async () => {
  const store = await connect();
  await store.run('UPDATE counters SET flag = ?, data = ? WHERE id = 1', [true, new Uint8Array([1, 2, 3])]);
  const row = await store.get<{ flag: number; data: Uint8Array }>('SELECT flag, data FROM counters');
  expect(row!.flag).toBe(1);
  expect([...row!.data]).toEqual([1, 2, 3]);
  expect(store.dialect).toBe('sqlite');
});

it('refuses the store itself inside its own transaction instead of waiting forever', async () => {
  const store = await connect();
  await expect(store.transaction(() => store.all('SELECT 1'))).rejects.toMatchObject({
    fix: expect.stringContaining('through the tx argument'),
  });
  expect(await store.get('SELECT value FROM counters')).toEqual({ value: 0 });
});

it('refuses a statement on a transaction that has already ended', async () => {
  const store = await connect();
  let leaked: Parameters<Parameters<SqlStore['transaction']>[0]>[0] | undefined;
  await store.transaction(async (tx) => {
    leaked = tx;
  });
  await expect(leaked!.run('UPDATE counters SET value = 5')).rejects.toThrow(/after it had ended/);
  expect(await store.get('SELECT value FROM counters')).toEqual({ value: 0 });
});

it('keeps one store usable after the backend closed its connections', async () => {
  const store = await connect();
  await store.run('UPDATE counters SET value = 3');
  backend.close();
  expect(await store.get('SELECT value FROM counters')).toEqual({ value: 3 });
});

it('shares one file between a store and the SQLite-only open() of the same name', async () => {
  const store = await connect();
  await store.run('UPDATE counters SET value = 9');
  const storage = await backend.resolve({
    capability: 'storage',
    declaration: true,
    toolName: 'counter',
    sessionId: 'session-1',
    personalityId: 'planner',
    agentId: 'main',
  });
  const database = storage.open('counters', { scope: 'personality', migrations: COUNTERS.sqlite });
  expect(database.prepare('SELECT value FROM counters').get()).toEqual({ value: 9 });
});

it('keeps the stores of two personalities apart', async () => {
  const planner = await connect('planner');
  const writer = await connect('writer');
  await planner.run('UPDATE counters SET value = 4');
  expect(await writer.get('SELECT value FROM counters')).toEqual({ value: 0 });
});

it('opens a host store that writes the clock in milliseconds and reads JSON fields like PostgreSQL', async () => {
  const store = openSqliteHostStore(join(dataDir, 'notes.db'), 'notes', {
    sqlite: ['CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)'],
    postgres: [],
  });
  try {
    const before = Date.now();
    await store.run(`INSERT INTO notes (id, body, at) VALUES (?, ?, ${store.expressions.nowMs})`, [
      'n1',
      JSON.stringify({ title: 'hello', size: 3 }),
    ]);
    const row = await store.get<{ at: number; title: string; size: number }>(
      `SELECT at, ${store.expressions.jsonField('body', 'title')} AS title,
         ${store.expressions.jsonField('body', 'size')} AS size FROM notes`,
    );
    expect(row?.title).toBe('hello');
    expect(Number(row?.size)).toBe(3);
    expect(Number.isInteger(row?.at)).toBe(true);
    expect(Math.abs((row?.at ?? 0) - before)).toBeLessThan(5_000);
    expect(store.changes).toBeUndefined();
  } finally {
    store.close();
  }
});
