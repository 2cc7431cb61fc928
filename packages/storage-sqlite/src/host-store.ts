import type { PortableMigrations, SqlStore } from '@quiver/types';
import { type OpenDatabaseSettings, openDatabase } from './open-database.js';
import { createSqliteSqlStore } from './sqlite-sql-store.js';

/** A store the host keeps for itself (grants, say): the portable `SqlStore`, closed by its opener. */
export interface SqliteHostStore extends SqlStore {
  /** The SQLite file. */
  readonly path: string;
  close(): void;
}

/**
 * Opens `file` (creating it and its directory) with `migrations.sqlite` applied, as the portable
 * `SqlStore` the host's own stores are written against. Synchronous, so a caller can open its
 * store where it cannot wait; a damaged, emptied or unwritable file fails here with the error
 * that names it and the fix (see `openDatabase`).
 */
export function openSqliteHostStore(
  file: string,
  name: string,
  migrations: PortableMigrations,
  settings: OpenDatabaseSettings = {},
): SqliteHostStore {
  const database = openDatabase(file, migrations.sqlite, settings);
  const store = createSqliteSqlStore(name, () => database);
  let closed = false;
  return {
    ...store,
    path: file,
    close() {
      if (closed) return;
      closed = true;
      database.close();
    },
  };
}
