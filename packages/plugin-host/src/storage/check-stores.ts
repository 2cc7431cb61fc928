import { connectPostgres, redactPostgresUrl } from '@quiver/storage-postgres';
import { environmentVariableOf, type StorageConfig } from './storage-config.js';

/** One store's health (the same shape as storage-sqlite's `StoreStatus`). */
export interface PostgresStoreStatus {
  /** `<url without password> <schema>.<table>`. */
  store: string;
  status: 'ok' | 'damaged' | 'unavailable';
  problem?: string;
  fix?: string;
}

/**
 * The health of the PostgreSQL storage of quiver.yaml, for `quiver doctor`: reachable, and every
 * table of Quiver's schemas read once. Never throws for a broken store: that is an entry with the
 * problem and the fix. Empty for SQLite storage.
 */
export async function checkPostgresStores(
  config: StorageConfig,
  environment: Readonly<Record<string, string | undefined>> = process.env,
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
  const shown = redactPostgresUrl(url);
  let pool: Awaited<ReturnType<typeof connectPostgres>>;
  try {
    pool = await connectPostgres({ url, source: `the ${variable} environment variable`, maxConnections: 1 });
  } catch (error) {
    const fix = (error as { fix?: unknown }).fix;
    return [
      {
        store: shown,
        status: 'unavailable',
        problem: (error as Error).message,
        ...(typeof fix === 'string' ? { fix } : {}),
      },
    ];
  }
  try {
    const tables = await pool.query<{ schema: string; table: string }>(
      `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
         WHERE table_type = 'BASE TABLE' AND (table_schema LIKE 'quiver\\_%' OR (table_schema = 'public'
           AND (table_name LIKE 'quiver\\_%' OR table_name IN ('sessions', 'calls', 'events', 'permission_grants'))))
         ORDER BY 1, 2`,
    );
    const statuses: PostgresStoreStatus[] = [];
    for (const { schema, table } of tables.rows) {
      const store = `${shown} ${schema}.${table}`;
      try {
        await pool.query(`SELECT 1 FROM "${schema}"."${table}" LIMIT 1`);
        statuses.push({ store, status: 'ok' });
      } catch (error) {
        statuses.push({
          store,
          status: 'damaged',
          problem: `Reading ${schema}.${table} of ${shown} failed: ${(error as Error).message}`,
          fix: 'Check the PostgreSQL server log for this table, and restore it from the database backup.',
        });
      }
    }
    return statuses;
  } catch (error) {
    return [{ store: shown, status: 'unavailable', problem: (error as Error).message }];
  } finally {
    await pool.end().catch(() => {});
  }
}
