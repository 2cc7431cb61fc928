import type { PostgresBackendLoader, PostgresStoreStatus } from './postgres-backend.js';
import { environmentVariableOf, type StorageConfig } from './storage-config.js';

/**
 * The health of the PostgreSQL storage of quiver.yaml, for `quiver doctor`: reachable, and every
 * table of Quiver's schemas read once. Never throws for a broken store: that is an entry with the
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
  return backend.checkStores({ url, source: `the ${variable} environment variable` });
}
