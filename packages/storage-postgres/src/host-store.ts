import type { PortableMigrations, SqlStore } from '@quiver/types';
import type pg from 'pg';
import { applyPostgresMigrations } from './migrations.js';
import { createPostgresSqlStore } from './postgres-sql-store.js';

/**
 * One concern of the host's own state (grants, the trust record, serve sessions) on `pool`'s
 * database, shared by every replica: `migrations.postgres` applied once across replicas (the
 * version kept in `quiver_schema_versions` under `concern`), in the schema the connection
 * starts in (normally `public`), as the portable `SqlStore` the store is written against.
 * The pool belongs to the caller.
 */
export async function openPostgresHostStore(
  pool: pg.Pool,
  concern: string,
  migrations: PortableMigrations,
): Promise<SqlStore> {
  await applyPostgresMigrations(pool, concern, migrations.postgres);
  const row = await pool.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  return createPostgresSqlStore(pool, row.rows[0]?.schema ?? 'public', concern);
}
