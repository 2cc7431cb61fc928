import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isQuiverError } from '@quiver/types';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/index.js';
import { tablesOfMigrations } from '../src/migrations.js';

const MIGRATIONS = [
  `CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
   -- CREATE TABLE commented_out (x)
   CREATE TABLE IF NOT EXISTS "Tag Names" (name TEXT);
   CREATE TEMP TABLE scratch (x);
   INSERT INTO notes (text) VALUES ('CREATE TABLE in_a_string (x)');`,
  `CREATE TABLE notes_new (id INTEGER PRIMARY KEY, text TEXT NOT NULL, at TEXT);
   INSERT INTO notes_new (id, text) SELECT id, text FROM notes;
   DROP TABLE notes;
   ALTER TABLE notes_new RENAME TO notes;
   CREATE VIRTUAL TABLE notes_fts USING fts5(text);`,
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-missing-tables-'));
  dirs.push(dir);
  return join(dir, 'notes.db');
}

describe('a store that lost a table its migrations made', () => {
  it('reads which tables the migrations leave: created, renamed, not dropped, not temporary, not in comments or strings', () => {
    expect([...tablesOfMigrations(MIGRATIONS)].sort()).toEqual(['notes', 'notes_fts', 'tag names']);
  });

  it('is refused at open with storage_damaged, naming the table and the fix, and nothing in it changes', () => {
    const path = storePath();
    const database = openDatabase(path, MIGRATIONS);
    database.prepare('INSERT INTO notes (text) VALUES (?)').run('kept');
    database.close();
    // Dropped outside Quiver.
    const outside = new Database(path);
    outside.exec('DROP TABLE "Tag Names"');
    outside.close();
    const before = readFileSync(path);
    let failure: unknown;
    try {
      openDatabase(path, MIGRATIONS).close();
    } catch (error) {
      failure = error;
    }
    expect(isQuiverError(failure) && failure.code).toBe('storage_damaged');
    const message = (failure as Error).message;
    expect(message).toContain(path);
    expect(message).toContain('lacks the table tag names');
    expect(message).toContain('schema version 2');
    expect((failure as { fix?: string }).fix).toContain(`mv "${path}"`);
    expect(readFileSync(path).equals(before)).toBe(true);
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT text FROM notes').all()).toContainEqual({ text: 'kept' });
    again.close();
  });

  it('opens as before when every table is there, after each migration and at the latest', () => {
    const path = storePath();
    openDatabase(path, MIGRATIONS.slice(0, 1)).close();
    const database = openDatabase(path, MIGRATIONS);
    expect(database.prepare("SELECT count(*) AS n FROM notes WHERE text LIKE 'CREATE%'").get()).toEqual({
      n: 1,
    });
    database.close();
  });
});
