// Public surface of @quiver/storage-postgres.

export type { PostgresStoreStatus } from './check-stores.js';
export { checkPostgresStores } from './check-stores.js';
export type { PostgresConnectionOptions } from './connect-postgres.js';
export { connectPostgres, DEFAULT_RECONNECT_PATIENCE_MS } from './connect-postgres.js';
export type { StorageUnavailableContext } from './connection-faults.js';
export { isConnectionLoss, retryIdempotent, storageUnavailable } from './connection-faults.js';
export { openPostgresHostStore } from './host-store.js';
export { applyPostgresMigrations } from './migrations.js';
export type { RewrittenStatement } from './placeholders.js';
export { toPostgresPlaceholders } from './placeholders.js';
export type { PostgresStorageBackend, PostgresStorageBackendOptions } from './postgres-storage-backend.js';
export { openPostgresStorageBackend } from './postgres-storage-backend.js';
export { assertPostgresUrl, redactPostgresUrl } from './postgres-url.js';
export type { ReplicaLeaseOptions } from './replica-lease.js';
export { DEFAULT_REPLICA_LEASE_MS, ReplicaLease } from './replica-lease.js';
export type { ReplicaMembership, SharedDatabase, SharedDatabaseOptions } from './shared-database.js';
export { openSharedDatabase } from './shared-database.js';
export { storeSchemaName } from './store-schema.js';
