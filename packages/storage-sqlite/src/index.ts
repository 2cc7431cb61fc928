// Public surface of @quiver/storage-sqlite.

export type { StoreStatus } from './check-stores.js';
export { checkSqliteStore, checkSqliteStores } from './check-stores.js';
export type { SqliteHostStore } from './host-store.js';
export { openSqliteHostStore } from './host-store.js';
export { applyMigrations } from './migrations.js';
export type { Durability, OpenDatabaseSettings } from './open-database.js';
export { DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './open-database.js';
export { sqliteBackend } from './sqlite-backend.js';
export { createSqliteSqlStore } from './sqlite-sql-store.js';
export type { SqliteStorageBackend, StorageBackendOptions } from './storage-backend.js';
export { createStorageBackend } from './storage-backend.js';
export { assertPathSegment, storageFilePath } from './storage-paths.js';
export { asidePath, describeStoreFault, moveAsideFix, withStoreFaults } from './store-faults.js';
export type { StoreRecordEntry } from './store-identity.js';
export {
  assertStoreNotEmptied,
  readStoreRecords,
  recordStore,
  STORE_RECORD_FILE,
  storeRecordOf,
} from './store-identity.js';
