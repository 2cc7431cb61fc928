import type { CapabilityBackend } from '@quiver/types';

type StorageSqlite = typeof import('@quiver/storage-sqlite');

/**
 * `@quiver/storage-sqlite` (and so better-sqlite3), imported when the host first asks for it:
 * the host asks only when quiver.yaml keeps state in SQLite, so a process on PostgreSQL never
 * loads the driver.
 */
export class SqliteOnDemand {
  #module: StorageSqlite | undefined;

  /** The SQLite backend of the session log and saved grants; imports the package on the first call. */
  async load(): Promise<StorageSqlite['sqliteBackend']> {
    this.#module ??= await import('@quiver/storage-sqlite');
    return this.#module.sqliteBackend;
  }

  /** Plugin storage in SQLite files under `dataDir`, once the host has loaded the backend; none otherwise. */
  storageBackends(dataDir: string): CapabilityBackend[] {
    if (this.#module === undefined) return [];
    return [this.#module.createStorageBackend({ dataDir }) as CapabilityBackend];
  }
}
