import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { errorMessage, isQuiverError, type SqlDatabase } from '@quiver/types';
import Database from 'better-sqlite3';
import { missingTablesError } from './migrations.js';
import { describeStoreFault } from './store-faults.js';
import { assertStoreNotEmptied, readStoreRecords, STORE_RECORD_FILE } from './store-identity.js';

/** One store's health, as `quiver doctor` shows it. */
export interface StoreStatus {
  /** The file (SQLite) or `database/schema` (PostgreSQL). */
  store: string;
  status: 'ok' | 'damaged' | 'unavailable';
  /** What is wrong, naming the store; absent when ok. */
  problem?: string;
  /** How a person fixes it; absent when ok. */
  fix?: string;
  /** The tables of a SQLite store, each read once; absent for other entries. */
  tables?: string[];
}

const MAX_DEPTH = 4;

/** Every `*.db` file and every recorded store under `directory`, to `MAX_DEPTH` levels. */
function storesUnder(directory: string, depth = 0, found = new Set<string>()): Set<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && depth < MAX_DEPTH) storesUnder(path, depth + 1, found);
    else if (entry.isFile() && entry.name.endsWith('.db')) found.add(path);
    else if (entry.isFile() && entry.name === STORE_RECORD_FILE) {
      try {
        for (const name of Object.keys(readStoreRecords(directory))) found.add(join(directory, name));
      } catch {
        found.add(path);
      }
    }
  }
  return found;
}

function statusOfError(store: string, error: unknown): StoreStatus {
  const described = isQuiverError(error) ? error : describeStoreFault(error, store, 'checking it');
  const message = described?.message ?? errorMessage(error);
  return {
    store,
    status: described?.code === 'storage_damaged' ? 'damaged' : 'unavailable',
    problem: message,
    ...(described?.fix ? { fix: described.fix } : {}),
  };
}

/**
 * One SQLite store: recorded but emptied, unreadable, failing SQLite's quick check, with a table
 * that cannot be read, or (when its `migrations` are known) without a table they made by its
 * schema version is not ok; an ok store lists its tables.
 */
export function checkSqliteStore(path: string, migrations?: readonly string[]): StoreStatus {
  if (path.endsWith(STORE_RECORD_FILE)) {
    try {
      readStoreRecords(resolve(path, '..'));
      return { store: path, status: 'ok' };
    } catch (error) {
      return statusOfError(path, error);
    }
  }
  try {
    assertStoreNotEmptied(path);
    if (!existsSync(path)) return { store: path, status: 'ok' };
    const database = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const result = database.pragma('quick_check', { simple: true });
      if (result !== 'ok') {
        const damaged = Object.assign(new Error(`quick_check: ${String(result)}`), {
          code: 'SQLITE_CORRUPT',
        });
        return statusOfError(path, damaged);
      }
      // quick_check skips what only reading finds (a table's overflow pages, say): read each table once.
      const tables = (
        database
          .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
          )
          .all() as { name: string }[]
      ).map((row) => row.name);
      if (migrations !== undefined) {
        const version = Number(database.pragma('user_version', { simple: true }));
        const missing = missingTablesError(database as unknown as SqlDatabase, migrations, version);
        if (missing !== undefined)
          return {
            store: path,
            status: 'damaged',
            problem: missing.message,
            ...(missing.fix ? { fix: missing.fix } : {}),
          };
      }
      for (const table of tables) {
        try {
          database.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}" LIMIT 1`).all();
        } catch (error) {
          const damaged = statusOfError(path, error);
          return { ...damaged, problem: `Reading the table ${table}: ${damaged.problem}` };
        }
      }
      return { store: path, status: 'ok', tables };
    } finally {
      database.close();
    }
  } catch (error) {
    return statusOfError(path, error);
  }
}

/**
 * The health of every SQLite store under a data directory (the session log, grants, plugin
 * storage): what a `quiver doctor` reports, one entry per store, sorted by path. `migrations`
 * names, by path relative to the data directory, the stores whose schema is known.
 */
export function checkSqliteStores(
  dataDir: string,
  migrations: Readonly<Record<string, readonly string[]>> = {},
): StoreStatus[] {
  const root = resolve(dataDir);
  return [...storesUnder(root)]
    .sort()
    .map((path) => checkSqliteStore(path, migrations[relative(root, path)]));
}
