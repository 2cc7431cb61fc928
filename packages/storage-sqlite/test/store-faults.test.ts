import { copyFileSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isQuiverError } from '@quiver/types';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSqliteStores, openDatabase, STORE_RECORD_FILE } from '../src/index.js';

const MIGRATIONS = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)'];

describe('stores that held data', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'quiver-store-faults-'));
    dirs.push(dir);
    return dir;
  };
  const withNote = (path: string) => {
    const database = openDatabase(path, MIGRATIONS);
    database.prepare('INSERT INTO notes (text) VALUES (?)').run('kept');
    database.close();
  };
  const failureOf = (work: () => unknown) => {
    try {
      work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };

  it('refuses to reopen a store truncated to 0 bytes as new, and names the file and the fix', () => {
    const path = join(dataDir(), 'notes.db');
    withNote(path);
    truncateSync(path, 0);
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const error = failureOf(() => openDatabase(path, MIGRATIONS));
    expect(isQuiverError(error) && error.code).toBe('storage_damaged');
    expect((error as Error).message).toContain(`${path} is empty (0 bytes)`);
    expect((error as { fix: string }).fix).toContain(`mv "${path}" "${path}.damaged"`);
  });

  it('refuses a store that was deleted, and starts a new one once a person says so', () => {
    const path = join(dataDir(), 'notes.db');
    withNote(path);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    expect((failureOf(() => openDatabase(path, MIGRATIONS)) as Error).message).toContain('is missing');
    writeFileSync(`${path}.damaged`, '');
    const fresh = openDatabase(path, MIGRATIONS);
    expect(fresh.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
    fresh.close();
  });

  it('refuses a store replaced by a new, empty database instead of migrating it as new', () => {
    const path = join(dataDir(), 'notes.db');
    withNote(path);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const replacement = new Database(path);
    replacement.exec('CREATE TABLE unrelated (x)');
    replacement.close();
    const error = failureOf(() => openDatabase(path, MIGRATIONS));
    expect(isQuiverError(error) && error.code).toBe('storage_damaged');
    expect((error as Error).message).toContain(`${path} is a database without any of its tables`);
    expect((error as { fix: string }).fix).toContain(`mv "${path}" "${path}.damaged"`);
    expect(checkSqliteStores(join(path, '..'))).toEqual([
      expect.objectContaining({ store: path, status: 'damaged' }),
    ]);
  });

  it('refuses a store overwritten by another Quiver store with a schema of its own, and takes it once a person moved it aside', () => {
    const dir = dataDir();
    const path = join(dir, 'notes.db');
    const other = join(dir, 'tickets.db');
    withNote(path);
    const tickets = openDatabase(other, [
      'CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL)',
    ]);
    tickets.prepare('INSERT INTO tickets (title) VALUES (?)').run('someone else');
    tickets.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    copyFileSync(other, path);
    const error = failureOf(() => openDatabase(path, MIGRATIONS));
    expect(isQuiverError(error) && error.code).toBe('storage_damaged');
    expect((error as Error).message).toContain(`${path} holds another database`);
    expect((error as { fix: string }).fix).toContain(`mv "${path}" "${path}.damaged"`);
    expect(checkSqliteStores(dir)).toContainEqual(
      expect.objectContaining({ store: path, status: 'damaged' }),
    );
    // The fix as written: moved aside, a new, empty store, which is then this store.
    rmSync(`${path}-wal`, { force: true });
    copyFileSync(path, `${path}.damaged`);
    rmSync(path);
    const fresh = openDatabase(path, MIGRATIONS);
    expect(fresh.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
    fresh.close();
    openDatabase(path, MIGRATIONS).close();
  });

  it('refuses a store whose write-ahead log, which held its schema and rows, was lost', () => {
    const path = join(dataDir(), 'notes.db');
    const copy = `${path}.before-checkpoint`;
    const database = openDatabase(path, MIGRATIONS);
    database.pragma('wal_autocheckpoint = 0');
    database.prepare('INSERT INTO notes (text) VALUES (?)').run('only in the WAL');
    // The main file as it is while the schema and the row are still in the WAL alone.
    copyFileSync(path, copy);
    database.close();
    expect(statSync(copy).size).toBeGreaterThan(0);
    for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    copyFileSync(copy, path);
    rmSync(copy);
    const error = failureOf(() => openDatabase(path, MIGRATIONS));
    expect(isQuiverError(error) && error.code).toBe('storage_damaged');
    expect((error as Error).message).toContain('write-ahead log');
  });

  it('reports a file that is not a database as damaged, naming it, instead of a bare SqliteError', () => {
    const path = join(dataDir(), 'notes.db');
    writeFileSync(path, 'not a database '.repeat(500));
    const error = failureOf(() => openDatabase(path, MIGRATIONS));
    expect(isQuiverError(error) && error.code).toBe('storage_damaged');
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('opening it');
  });

  it('checks every store under a data directory, one status each', () => {
    const dir = dataDir();
    withNote(join(dir, 'intact.db'));
    withNote(join(dir, 'storage/project/emptied.db'));
    truncateSync(join(dir, 'storage/project/emptied.db'), 0);
    writeFileSync(join(dir, 'corrupt.db'), 'garbage '.repeat(1000));
    writeFileSync(join(dir, 'storage', STORE_RECORD_FILE), '{not json');
    const statuses = checkSqliteStores(dir);
    const of = (name: string) => statuses.find((status) => status.store === join(dir, name));
    expect(of('intact.db')).toEqual({ store: join(dir, 'intact.db'), status: 'ok', tables: ['notes'] });
    expect(of('corrupt.db')).toMatchObject({ status: 'damaged', fix: expect.stringContaining('.damaged') });
    expect(of('storage/project/emptied.db')).toMatchObject({
      status: 'damaged',
      problem: expect.stringContaining('is empty (0 bytes)'),
    });
    expect(of(`storage/${STORE_RECORD_FILE}`)).toMatchObject({ status: 'damaged' });
  });
});
