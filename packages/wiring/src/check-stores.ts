import { PROJECT_GRANT_MIGRATIONS } from '@quiver/permissions';
import { checkPostgresStores, type StorageConfig } from '@quiver/plugin-host';
import { SESSION_LOG_MIGRATIONS } from '@quiver/runtime';
import type { StoreStatus } from '@quiver/storage-sqlite';
import { loadPostgresBackend } from './postgres-backend.js';

export interface CheckStoresOptions {
  /** The data directory: its SQLite stores (session log, grants, plugin storage) are checked. */
  dataDir: string;
  /** `storage` of quiver.yaml; with `kind: postgres` the shared database is checked too. */
  storage?: StorageConfig;
  environment?: Readonly<Record<string, string | undefined>>;
}

/**
 * The health of every store Quiver keeps, one entry per store (what `quiver doctor` shows): the
 * SQLite files under the data directory (recorded but now missing or empty, unreadable, failing
 * SQLite's quick check, the host's own stores without a table their schema version has), and with PostgreSQL storage every table of Quiver's schemas. A broken
 * store is an entry with the problem and the fix, never a throw.
 */
export async function checkStores(options: CheckStoresOptions): Promise<StoreStatus[]> {
  // Imported here, not at the top: importing @quiver/wiring loads no database driver.
  const { checkSqliteStores } = await import('@quiver/storage-sqlite');
  // The host's own stores, whose schemas are known here: a table they lack is found too.
  const statuses = checkSqliteStores(options.dataDir, {
    'sessions.db': SESSION_LOG_MIGRATIONS.sqlite,
    'permissions.db': PROJECT_GRANT_MIGRATIONS.sqlite,
  });
  if (options.storage !== undefined)
    statuses.push(
      ...(await checkPostgresStores(
        options.storage,
        options.environment ?? process.env,
        loadPostgresBackend,
      )),
    );
  return statuses;
}
