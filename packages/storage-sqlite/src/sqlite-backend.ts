import { createRequire } from 'node:module';
import type { SqlDatabase } from '@quiver/types';
import Database from 'better-sqlite3';
import { openSqliteHostStore } from './host-store.js';
import { applyMigrations } from './migrations.js';
import { createSqliteSqlStore } from './sqlite-sql-store.js';
import { describeStoreFault, withStoreFaults } from './store-faults.js';
import { assertStoreNotEmptied, recordStore } from './store-identity.js';

/**
 * The SQLite driver as the runtime's own stores use it (the session log and its writer thread,
 * the project grants): what `@quiver/wiring` hands the host as `sqlite`, so that only this
 * package loads better-sqlite3.
 */
export const sqliteBackend = {
  // better-sqlite3's connection is the `SqlDatabase` shape; its transaction type is declared apart.
  openConnection: (path: string, options: { fileMustExist?: boolean } = {}) =>
    new Database(path, options) as unknown as SqlDatabase & { readonly open: boolean },
  get driverModule(): string {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  },
  createSqlStore: createSqliteSqlStore,
  openHostStore: openSqliteHostStore,
  applyMigrations,
  withStoreFaults,
  describeStoreFault,
  assertStoreNotEmptied,
  recordStore,
};
