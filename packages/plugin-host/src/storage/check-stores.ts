import { PROJECT_GRANT_MIGRATIONS } from '@quiver/permissions';
import { SESSION_LOG_MIGRATIONS } from '@quiver/runtime';
import { TRUST_MIGRATIONS } from '../trust/shared-trust-storage.js';
import type { PostgresBackendLoader, PostgresStoreStatus } from './postgres-backend.js';
import { SERVE_SESSION_MIGRATIONS } from './serve-session-records.js';

/** The stores the host keeps in PostgreSQL for itself, by concern (as `openStore` names them). */
const HOST_STORES = {
  trust: TRUST_MIGRATIONS,
  permissions: PROJECT_GRANT_MIGRATIONS,
  'session-log': SESSION_LOG_MIGRATIONS,
  'serve-sessions': SERVE_SESSION_MIGRATIONS,
};

import { environmentVariableOf, type StorageConfig } from './storage-config.js';

/**
 * The health of the PostgreSQL storage of quiver.yaml, for `quiver doctor`: reachable, and every
 * table of every store read once (trust records, MCP tool pins, grants, the session log, serve
 * sessions, the replica leases and the plugins' schemas); a table a migrated store lacks is damaged. Never throws for a broken store: that is an entry with the
 * problem and the fix. Empty for SQLite storage (the driver is then never loaded).
 */
export async function checkPostgresStores(
  config: StorageConfig,
  environment: Readonly<Record<string, string | undefined>>,
  postgres: PostgresBackendLoader,
): Promise<PostgresStoreStatus[]> {
  if (config.kind !== 'postgres') return [];
  const variable = environmentVariableOf(config.url) as string;
  const url = environment[variable];
  if (!url) {
    return [
      {
        store: `PostgreSQL (\${${variable}})`,
        status: 'unavailable',
        problem: `quiver.yaml keeps state in PostgreSQL with the URL from \${${variable}}, but ${variable} is not set.`,
        fix: `Set ${variable} as it is set where the replicas run.`,
      },
    ];
  }
  const backend = await postgres();
  const concerns = Object.fromEntries(
    Object.entries(HOST_STORES).map(([concern, migrations]) => [concern, migrations.postgres]),
  );
  return backend.checkStores({ url, source: `the ${variable} environment variable`, concerns });
}
