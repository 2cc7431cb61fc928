import { connectPostgres } from './connect-postgres.js';
import { redactPostgresUrl } from './postgres-url.js';

/** One store's health (the shape of storage-sqlite's `StoreStatus`). */
export interface PostgresStoreStatus {
  /** `<url without password> <schema>.<table>`. */
  store: string;
  status: 'ok' | 'damaged' | 'unavailable';
  problem?: string;
  fix?: string;
}

/**
 * The health of the PostgreSQL storage at `url`, for `quiver doctor`: reachable, and every table
 * of Quiver's schemas read once. Never throws for a broken store: that is an entry with the
 * problem and the fix.
 */
export async function checkPostgresStores({
  url,
  source,
}: {
  url: string;
  /** Where the URL came from, for messages. */
  source: string;
}): Promise<PostgresStoreStatus[]> {
  const shown = redactPostgresUrl(url);
  let pool: Awaited<ReturnType<typeof connectPostgres>>;
  try {
    pool = await connectPostgres({ url, source, maxConnections: 1 });
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
