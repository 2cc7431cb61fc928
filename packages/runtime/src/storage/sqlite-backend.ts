import type { PortableMigrations, SqlDatabase, SqlStore } from '@quiver/types';

/** A SQLite connection as the runtime's SQLite stores use it (better-sqlite3's shape). */
export interface SqliteConnection extends SqlDatabase {
  /** False once closed. */
  readonly open: boolean;
}

/** A store the host keeps for itself (grants), closed by whoever opened it. */
export interface SqliteHostStoreHandle extends SqlStore {
  readonly path: string;
  close(): void;
}

/**
 * What the runtime's SQLite stores (the session log, the project grants) need of the driver. The
 * composition root gives it (`sqliteBackend` of `@quiver/storage-sqlite`, which `@quiver/wiring`
 * passes to the host), so the runtime itself loads no database driver.
 */
export interface SqliteBackend {
  /** Opens a database file; with `fileMustExist`, a missing file fails instead of being created. */
  openConnection(path: string, options?: { fileMustExist?: boolean }): SqliteConnection;
  /** Where the driver module is, for the session log's writer thread to load it. */
  readonly driverModule: string;
  /** The portable `SqlStore` over a connection opened here (asked for at each use). */
  createSqlStore(name: string, database: () => SqlDatabase): SqlStore;
  /** Opens a file as the portable `SqlStore`, migrations applied, faults named with their fix. */
  openHostStore(file: string, name: string, migrations: PortableMigrations): SqliteHostStoreHandle;
  /** Brings a connection to the last of `migrations`; returns the version it is at. */
  applyMigrations(database: SqlDatabase, migrations: readonly string[]): number;
  /** Runs `work`; a full disk, a read-only or damaged file fails with an error naming the file and the fix. */
  withStoreFaults<T>(path: string, doing: string, work: () => T): T;
  /** The error a person can act on for a storage fault, or undefined when it is not one. */
  describeStoreFault(
    error: unknown,
    path: string,
    doing: string,
  ): { message: string; fix?: string | undefined } | undefined;
  /** Refuses a file that held data before and is now missing or empty. */
  assertStoreNotEmptied(path: string): void;
  /** Remembers that the file holds data, for `assertStoreNotEmptied`. */
  recordStore(path: string): void;
}
