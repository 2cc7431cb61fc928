import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SqlDatabase } from '@quiver/types';
import Database from 'better-sqlite3';
import { applyMigrations } from './migrations.js';
import { withStoreFaults } from './store-faults.js';
import { assertStoreNotEmptied, recordStore } from './store-identity.js';

/**
 * `full` fsyncs the WAL on every commit, so an acknowledged write survives power loss and OS
 * crashes too. `normal` survives the death of the process (the WAL is already in the OS page
 * cache) but may lose the last commits if the machine goes down; it is faster for bulk writes.
 */
export type Durability = 'full' | 'normal';

export interface OpenDatabaseSettings {
  durability?: Durability;
  /** How long a writer waits for another connection's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a SQLite file in WAL mode with foreign keys on and applies the pending migrations.
 * Creates the parent directory. The caller owns the connection and closes it.
 *
 * A store Quiver created that is now missing or empty is refused (`storage_damaged`), never
 * reopened as new: the directory's `stores.json` records each store once it holds its schema.
 * A damaged, unwritable or full file fails with an error that names it and says how to fix it.
 */
export function openDatabase(
  path: string,
  migrations: readonly string[],
  options: OpenDatabaseSettings = {},
): SqlDatabase {
  return withStoreFaults(path, 'opening it', () => {
    mkdirSync(dirname(path), { recursive: true });
    assertStoreNotEmptied(path);
    const database = openAndMigrate(path, migrations, options);
    if (migrations.length > 0) {
      try {
        recordStore(path);
      } catch {
        // The store is fine; the record is written at its next open (a full disk, say).
      }
    }
    return database;
  });
}

function openAndMigrate(
  path: string,
  migrations: readonly string[],
  options: OpenDatabaseSettings,
): SqlDatabase {
  const database = new Database(path);
  try {
    // The busy timeout comes first so that switching to WAL waits for a concurrent opener.
    database.pragma(
      `busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`,
    );
    switchToWal(database, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    database.pragma(`synchronous = ${(options.durability ?? 'full') === 'full' ? 'FULL' : 'NORMAL'}`);
    database.pragma('foreign_keys = ON');
    applyMigrations(database as unknown as SqlDatabase, migrations);
  } catch (error) {
    database.close();
    throw error;
  }
  return database as unknown as SqlDatabase;
}

/**
 * Switches to WAL. The switch needs the file to itself, and SQLite may answer SQLITE_BUSY at
 * once, without its busy handler, while another process opening the same new file does the same:
 * such an answer is retried until the busy timeout has passed, as any other locked write waits.
 */
function switchToWal(database: Database.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + Math.max(0, busyTimeoutMs);
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}
