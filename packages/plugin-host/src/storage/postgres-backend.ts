import type { CapabilityBackend, PortableMigrations, SqlParameter, SqlStore } from '@quiver/types';

/** This process among the replicas sharing the database. */
export interface ReplicaMembership {
  readonly id: string;
  readonly leaseMs: number;
  /** A condition true when the replica whose id is in `column` stopped or let its lease run out; `params` fill its `?`. */
  deadCondition(column: string): { sql: string; params: SqlParameter[] };
}

/**
 * A PostgreSQL database every replica of a project shares, as the host uses it: migrated stores
 * for its own concerns (with a change feed), the `storage` capability for plugins, and this
 * process's replica lease (when opened with one).
 */
export interface SharedDatabase {
  readonly project: string;
  readonly replica: ReplicaMembership | undefined;
  openStore(concern: string, migrations: PortableMigrations): Promise<SqlStore>;
  openStorageBackend(): Promise<CapabilityBackend<'storage'> & { close(): Promise<void> }>;
  close(): Promise<void>;
}

/** One store's health, as `quiver doctor` shows it (the shape of storage-sqlite's `StoreStatus`). */
export interface PostgresStoreStatus {
  /** `<url without password> <schema>.<table>`. */
  store: string;
  status: 'ok' | 'damaged' | 'unavailable';
  problem?: string;
  fix?: string;
}

export interface SharedDatabaseRequest {
  url: string;
  /** Where the URL came from, for messages. */
  source: string;
  project: string;
  /** Join the replicas with a lease of this length; omitted by short-lived readers. */
  leaseMs?: number;
  applicationName?: string;
  maxConnections?: number;
}

/**
 * What the host needs of PostgreSQL, given by the composition root (`@quiver/wiring` loads
 * `@quiver/storage-postgres`, and with it the driver, only when quiver.yaml asks for it).
 */
export interface PostgresBackend {
  openSharedDatabase(request: SharedDatabaseRequest): Promise<SharedDatabase>;
  /** `concerns`: the host's stores (concern → PostgreSQL migrations), whose every table is checked. */
  checkStores(request: {
    url: string;
    source: string;
    concerns?: Readonly<Record<string, readonly string[]>>;
  }): Promise<PostgresStoreStatus[]>;
}

/** Loads the backend when it is first needed. */
export type PostgresBackendLoader = () => Promise<PostgresBackend>;
