import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CapabilityRequest, isQuiverError, type StorageScope } from '@quiver/types';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStorageBackend, openDatabase, type SqliteStorageBackend } from '../src/index.js';

const NOTES_MIGRATIONS = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);'];

function storageRequest(
  personalityId: string,
  declaration: CapabilityRequest<'storage'>['declaration'] = true,
): CapabilityRequest<'storage'> {
  return {
    capability: 'storage',
    declaration,
    toolName: 'notes_tool',
    sessionId: 'session-1',
    personalityId,
    agentId: 'agent-1',
  };
}

function thrownError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('createStorageBackend', () => {
  let dataDir: string;
  let backend: SqliteStorageBackend;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quiver-storage-'));
    backend = createStorageBackend({ dataDir, userId: 'ada' });
  });

  afterEach(async () => {
    backend.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('places each scope in its own directory under the data directory', async () => {
    const handle = await backend.resolve(storageRequest('helper'));
    for (const scope of ['personality', 'project', 'user'] as StorageScope[]) {
      handle.open('notes', { scope, migrations: NOTES_MIGRATIONS });
    }
    expect(backend.openPaths().sort()).toEqual(
      [
        join(dataDir, 'storage', 'personality', 'helper', 'notes.db'),
        join(dataDir, 'storage', 'project', 'notes.db'),
        join(dataDir, 'storage', 'user', 'ada', 'notes.db'),
      ].sort(),
    );
    expect(handle.scopes).toEqual({ personality: 'helper', project: dataDir, user: 'ada' });
  });

  it('keeps one personality out of another personality database', async () => {
    const alice = await backend.resolve(storageRequest('alice'));
    const bob = await backend.resolve(storageRequest('bob'));
    alice
      .open('notes', { scope: 'personality', migrations: NOTES_MIGRATIONS })
      .prepare('INSERT INTO notes (body) VALUES (?)')
      .run('alice secret');
    const bobNotes = bob.open('notes', { scope: 'personality', migrations: NOTES_MIGRATIONS });
    expect(bobNotes.prepare('SELECT body FROM notes').all()).toEqual([]);
  });

  it('shares the project scope between personalities', async () => {
    const alice = await backend.resolve(storageRequest('alice'));
    const bob = await backend.resolve(storageRequest('bob'));
    alice
      .open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS })
      .prepare('INSERT INTO notes (body) VALUES (?)')
      .run('team plan');
    const bobNotes = bob.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    expect(bobNotes.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'team plan' }]);
  });

  it('refuses scopes the tool did not declare', async () => {
    const handle = await backend.resolve(storageRequest('helper', { scopes: ['project'] }));
    expect(handle.scopes).toEqual({ project: dataDir });
    const error = thrownError(() =>
      handle.open('notes', { scope: 'personality', migrations: NOTES_MIGRATIONS }),
    );
    expect(isQuiverError(error) && error.code).toBe('not_permitted');
    expect(String((error as Error).message)).toContain('personality');
    expect(existsSync(join(dataDir, 'storage', 'personality'))).toBe(false);
  });

  it.each([
    ['../escape'],
    ['..'],
    ['a/b'],
    ['a\\b'],
    ['.hidden'],
    [''],
  ])('refuses the personality id %j instead of writing outside its directory', async (personalityId) => {
    const handle = await backend.resolve(storageRequest(personalityId));
    const error = thrownError(() =>
      handle.open('notes', { scope: 'personality', migrations: NOTES_MIGRATIONS }),
    );
    expect(isQuiverError(error) && error.code).toBe('input_invalid');
    expect(backend.openPaths()).toEqual([]);
  });

  it.each([
    ['../notes'],
    ['x/../../y'],
    ['/etc/passwd'],
    ['notes/..'],
  ])('refuses the database name %j', async (name) => {
    const handle = await backend.resolve(storageRequest('helper'));
    const error = thrownError(() => handle.open(name, { scope: 'project', migrations: NOTES_MIGRATIONS }));
    expect(isQuiverError(error) && error.code).toBe('input_invalid');
    expect(existsSync(join(dataDir, 'storage'))).toBe(false);
  });

  it('opens databases in WAL mode with foreign keys and full synchronous commits', async () => {
    const handle = await backend.resolve(storageRequest('helper'));
    const database = handle.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('commits with synchronous NORMAL when asked for the faster durability', async () => {
    const fast = createStorageBackend({ dataDir, durability: 'normal' });
    const handle = await fast.resolve(storageRequest('helper'));
    const database = handle.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    expect(database.pragma('synchronous', { simple: true })).toBe(1);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    fast.close();
  });

  it('reuses one connection per file and reopens it after close', async () => {
    const first = await backend.resolve(storageRequest('helper'));
    const second = await backend.resolve(storageRequest('other'));
    const a = first.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    const b = second.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    expect(a).toBe(b);
    a.prepare('INSERT INTO notes (body) VALUES (?)').run('kept');
    backend.close();
    expect(backend.openPaths()).toEqual([]);
    const reopened = first.open('notes', { scope: 'project', migrations: NOTES_MIGRATIONS });
    expect(reopened).not.toBe(a);
    expect(reopened.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'kept' }]);
  });
});

describe('openDatabase migrations', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'quiver-migrations-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const LOGGED_MIGRATIONS = [
    "CREATE TABLE log (step TEXT NOT NULL); INSERT INTO log VALUES ('one');",
    "INSERT INTO log VALUES ('two');",
    "INSERT INTO log VALUES ('three');",
  ];

  it('applies each migration once and in order across reopenings', () => {
    const path = join(directory, 'nested', 'log.db');
    const first = openDatabase(path, LOGGED_MIGRATIONS.slice(0, 2));
    expect(first.pragma('user_version', { simple: true })).toBe(2);
    first.close();
    const second = openDatabase(path, LOGGED_MIGRATIONS);
    expect(second.pragma('user_version', { simple: true })).toBe(3);
    expect(second.prepare('SELECT step FROM log ORDER BY rowid').all()).toEqual([
      { step: 'one' },
      { step: 'two' },
      { step: 'three' },
    ]);
    second.close();
    const third = openDatabase(path, LOGGED_MIGRATIONS);
    expect(third.prepare('SELECT count(*) AS n FROM log').get()).toEqual({ n: 3 });
    third.close();
  });

  it('leaves the database at the last good version when a migration fails', () => {
    const path = join(directory, 'log.db');
    const error = thrownError(() =>
      openDatabase(path, [
        LOGGED_MIGRATIONS[0]!,
        "INSERT INTO log VALUES ('half'); INSERT INTO missing VALUES (1);",
      ]),
    );
    expect(isQuiverError(error) && error.message).toContain('Migration 2');
    const database = openDatabase(path, LOGGED_MIGRATIONS.slice(0, 1));
    expect(database.pragma('user_version', { simple: true })).toBe(1);
    expect(database.prepare('SELECT step FROM log').all()).toEqual([{ step: 'one' }]);
    database.close();
  });

  it('refuses a database whose schema is newer than the code', () => {
    const path = join(directory, 'log.db');
    openDatabase(path, LOGGED_MIGRATIONS).close();
    const error = thrownError(() => openDatabase(path, LOGGED_MIGRATIONS.slice(0, 1)));
    expect(isQuiverError(error) && error.code).toBe('conflict');
    expect((error as Error).message).toMatch(/schema version 3, newer than the 1 migration/);
  });
});

describe('openDatabase across processes', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'quiver-migrations-race-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  function openInChild(path: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const script = fileURLToPath(new URL('./fixtures/open-and-migrate.mjs', import.meta.url));
    return new Promise((resolve) => {
      execFile(process.execPath, [script, path], (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  }

  it('applies each migration exactly once when several processes open a new database at once', async () => {
    const path = join(directory, 'shared.db');
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => openInChild(path)));
    expect(outcomes.map(({ code, stdout, stderr }) => ({ code, stdout, stderr }))).toEqual(
      Array.from({ length: 4 }, () => ({ code: 0, stdout: '3', stderr: '' })),
    );
    const database = new Database(path, { readonly: true });
    const steps = database.prepare('SELECT step FROM log ORDER BY rowid').all();
    database.close();
    expect(steps).toEqual([{ step: 'one' }, { step: 'two' }, { step: 'three' }]);
  });
});
