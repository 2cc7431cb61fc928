import { connectPostgres } from './connect-postgres.js';
import { redactPostgresUrl } from './postgres-url.js';
import { IDENTITY_TABLE } from './store-identity.js';

/** One store's health (the shape of storage-sqlite's `StoreStatus`). */
export interface PostgresStoreStatus {
  /** `<url without password> <schema>.<table>`. */
  store: string;
  status: 'ok' | 'damaged' | 'unavailable';
  problem?: string;
  fix?: string;
}

/**
 * The tables `migrations` leave behind, in order of creation: created, renamed and dropped ones
 * followed through (the host's migrations declare each table once, in plain DDL).
 */
export function tablesOfMigrations(migrations: readonly string[]): string[] {
  const tables: string[] = [];
  const statement =
    /\b(?:CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?|ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?(\w+)"?\s+RENAME\s+TO\s+"?(\w+)"?|DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?(\w+)"?)/gi;
  for (const migration of migrations) {
    for (const [, created, renamedFrom, renamedTo, dropped] of migration.matchAll(statement)) {
      const gone = renamedFrom ?? dropped;
      if (gone !== undefined && tables.includes(gone)) tables.splice(tables.indexOf(gone), 1);
      const added = created ?? renamedTo;
      if (added !== undefined && !tables.includes(added)) tables.push(added);
    }
  }
  return tables;
}

/**
 * The health of the PostgreSQL storage at `url`, for `quiver doctor`: reachable, and every table
 * read once — the tables of each of the host's stores in `concerns` (concern → its PostgreSQL
 * migrations; they live in the schema the connection starts in), the backend's own `quiver_*`
 * tables there, and every table of the plugins' `quiver_*` schemas. A table a migrated store
 * should have and does not is damaged. Never throws for a broken store: that is an entry with
 * the problem and the fix.
 */
export async function checkPostgresStores({
  url,
  source,
  concerns = {},
}: {
  url: string;
  /** Where the URL came from, for messages. */
  source: string;
  /** The host's stores: concern → its PostgreSQL migrations. */
  concerns?: Readonly<Record<string, readonly string[]>>;
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
    const expected = new Map<string, string>();
    for (const [concern, migrations] of Object.entries(concerns))
      for (const table of tablesOfMigrations(migrations)) expected.set(table, concern);
    const home =
      (await pool.query<{ schema: string | null }>('SELECT current_schema() AS schema')).rows[0]?.schema ??
      'public';
    const tables = await pool.query<{ schema: string; table: string }>(
      `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
         WHERE table_type = 'BASE TABLE' AND (table_schema LIKE 'quiver\\_%' OR (table_schema = $1
           AND (table_name LIKE 'quiver\\_%' OR table_name = ANY($2))))
         ORDER BY 1, 2`,
      [home, [...expected.keys()]],
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
    const present = new Set(tables.rows.filter((row) => row.schema === home).map((row) => row.table));
    const versions = await migratedConcerns(pool, home, present);
    for (const [table, concern] of expected) {
      const version = versions.get(concern);
      if (present.has(table) || version === undefined) continue;
      statuses.push({
        store: `${shown} ${home}.${table}`,
        status: 'damaged',
        problem: `The table ${home}.${table} of ${shown} is missing, though the ${concern} store it belongs to is at schema version ${version}.`,
        fix: 'Restore the table from the database backup: Quiver does not create again a table of a store it has migrated.',
      });
    }
    statuses.push(...(await vanishedStores(pool, shown, home, tables.rows, versions)));
    return statuses;
  } catch (error) {
    return [{ store: shown, status: 'unavailable', problem: (error as Error).message }];
  } finally {
    await pool.end().catch(() => {});
  }
}

/** The host's stores that have been migrated (concern → version), from `quiver_schema_versions`. */
async function migratedConcerns(
  pool: Awaited<ReturnType<typeof connectPostgres>>,
  schema: string,
  present: ReadonlySet<string>,
): Promise<Map<string, number>> {
  if (!present.has('quiver_schema_versions')) return new Map();
  const rows = await pool.query<{ component: string; version: number }>(
    `SELECT component, version FROM "${schema}".quiver_schema_versions WHERE version > 0`,
  );
  return new Map(rows.rows.map((row) => [row.component, Number(row.version)]));
}

/**
 * Stores recorded in the identity table whose tables are gone: a plugin store's schema dropped,
 * or a host concern no longer migrated in its schema. Opening them is refused; this says so first.
 */
async function vanishedStores(
  pool: Awaited<ReturnType<typeof connectPostgres>>,
  shown: string,
  home: string,
  tables: ReadonlyArray<{ schema: string; table: string }>,
  versions: ReadonlyMap<string, number>,
): Promise<PostgresStoreStatus[]> {
  const exists = await pool.query<{ table: string | null }>(
    `SELECT to_regclass('${IDENTITY_TABLE}')::text AS table`,
  );
  if (!exists.rows[0]?.table) return [];
  const records = await pool.query<{ store: string; created_at: string }>(
    `SELECT store, created_at FROM ${IDENTITY_TABLE} ORDER BY store`,
  );
  const schemas = new Set(tables.map((row) => row.schema));
  const statuses: PostgresStoreStatus[] = [];
  for (const { store, created_at: createdAt } of records.rows) {
    let where: string | undefined;
    if (store.startsWith('store:')) {
      const schema = store.slice('store:'.length);
      if (!schemas.has(schema)) where = `schema ${schema}`;
    } else if (store.startsWith(`host:${home}.`)) {
      const concern = store.slice(`host:${home}.`.length);
      if (!versions.has(concern)) where = `the ${concern} tables of schema ${home}`;
    }
    if (where === undefined) continue;
    statuses.push({
      store: `${shown} ${where}`,
      status: 'damaged',
      problem: `The store in ${where} of ${shown} held data (recorded on ${createdAt} in ${IDENTITY_TABLE}), but its tables are gone; Quiver refuses to re-create it empty.`,
      fix: `Restore it from the database backup. To start a new, empty store instead: DELETE FROM ${IDENTITY_TABLE} WHERE store = '${store}';`,
    });
  }
  return statuses;
}
