// Public surface of @quiver/storage-sqlite.

export { applyMigrations } from './migrations.js';
export type { Durability, OpenDatabaseSettings } from './open-database.js';
export { DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './open-database.js';
export { createSqliteSqlStore } from './sqlite-sql-store.js';
export type { SqliteStorageBackend, StorageBackendOptions } from './storage-backend.js';
export { createStorageBackend } from './storage-backend.js';
export { assertPathSegment, storageFilePath } from './storage-paths.js';
