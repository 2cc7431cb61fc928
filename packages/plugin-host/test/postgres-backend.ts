import * as postgres from '@quiver/test-storage/postgres';
import type { PostgresBackendLoader } from '../src/index.js';

/** The PostgreSQL backend as wiring gives it to the host. */
export const loadPostgresBackend: PostgresBackendLoader = async () => ({
  openSharedDatabase: postgres.openSharedDatabase,
  checkStores: postgres.checkPostgresStores,
});
