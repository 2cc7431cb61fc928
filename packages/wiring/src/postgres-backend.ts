import type { PostgresBackendLoader } from '@quiver/plugin-host';

/**
 * The PostgreSQL backend, imported when quiver.yaml first asks for it: a process on SQLite never
 * loads `@quiver/storage-postgres` or `pg`.
 */
export const loadPostgresBackend: PostgresBackendLoader = async () => {
  const postgres = await import('@quiver/storage-postgres');
  return { openSharedDatabase: postgres.openSharedDatabase, checkStores: postgres.checkPostgresStores };
};
