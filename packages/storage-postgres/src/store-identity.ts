import { QuiverError } from '@quiver/types';
import type pg from 'pg';

/**
 * Where the stores of one database record that they exist: a schema of its own, so dropping a
 * store's schema (or the tables of the host's concerns) leaves the record that says it held data.
 */
export const IDENTITY_TABLE = 'quiver_identity.stores';

// Serializes only the creation of the identity table (different stores migrate under different locks).
const IDENTITY_LOCK_KEY = 0x71766964; // "qvid"

/** Which store a versioned schema is, and how to describe it when its tables are gone. */
export interface StoreIdentity {
  /** Unique in the database: `store:<schema>` or `host:<schema>.<concern>`. */
  key: string;
  /** `the PostgreSQL store kanban (schema quiver_kanban_…)`. */
  describe: string;
}

/** Creates the identity table if it is missing, inside the caller's transaction. */
export async function ensureIdentityTable(client: pg.PoolClient): Promise<void> {
  const found = await client.query<{ table: string | null }>(
    `SELECT to_regclass('${IDENTITY_TABLE}')::text AS table`,
  );
  if (found.rows[0]?.table) return;
  await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [IDENTITY_LOCK_KEY]);
  await client.query('CREATE SCHEMA IF NOT EXISTS quiver_identity');
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${IDENTITY_TABLE} (store TEXT PRIMARY KEY, created_at TEXT NOT NULL)`,
  );
}

/** When the store was recorded as holding its schema, or undefined when it never was. */
export async function recordedAt(
  client: pg.PoolClient,
  identity: StoreIdentity,
): Promise<string | undefined> {
  const row = await client.query<{ created_at: string }>(
    `SELECT created_at FROM ${IDENTITY_TABLE} WHERE store = $1`,
    [identity.key],
  );
  return row.rows[0]?.created_at;
}

/** Records that the store holds its schema (once; later calls keep the first date). */
export async function recordIdentity(client: pg.PoolClient, identity: StoreIdentity): Promise<void> {
  await client.query(
    `INSERT INTO ${IDENTITY_TABLE} (store, created_at) VALUES ($1, $2) ON CONFLICT (store) DO NOTHING`,
    [identity.key, new Date().toISOString()],
  );
}

/** The store was recorded with data and its tables (version) are gone: refused, never re-created empty. */
export async function storeTablesGone(
  client: pg.PoolClient,
  identity: StoreIdentity,
  createdAt: string,
): Promise<QuiverError> {
  const row = await client.query<{ database: string }>('SELECT current_database() AS database');
  const database = row.rows[0]?.database ?? '(unknown)';
  return new QuiverError(
    'storage_damaged',
    `${identity.describe} in database ${database} held data (recorded on ${createdAt} in ${IDENTITY_TABLE}), but its tables are gone (the schema or its tables were dropped, or restored without them); it is not re-created empty.`,
    {
      fix: `Restore it from a backup (for example pg_restore --schema of that schema into ${database}). To start a new, empty store instead, delete its record: DELETE FROM ${IDENTITY_TABLE} WHERE store = '${identity.key}';`,
      details: { database, store: identity.key, createdAt },
    },
  );
}
