import { QuiverError } from '@quiver/types';
import type pg from 'pg';
import { applyVersionedMigrations } from './versioned-migration.js';

// One key for every component: migrations are rare, and one lock cannot deadlock with itself.
const MIGRATION_LOCK_KEY = 0x71756976; // "quiv"

/**
 * Brings `component`'s schema to `migrations.length` (see `applyVersionedMigrations`), its
 * version recorded in `quiver_schema_versions`.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  component: string,
  migrations: readonly string[],
): Promise<number> {
  return applyVersionedMigrations(
    pool,
    {
      async identity(client) {
        const where = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
        const schema = where.rows[0]?.schema ?? 'public';
        return {
          key: `host:${schema}.${component}`,
          describe: `The PostgreSQL tables of ${component} (schema ${schema})`,
        };
      },
      lockKey: MIGRATION_LOCK_KEY,
      async prepare(client) {
        await client.query(
          'CREATE TABLE IF NOT EXISTS quiver_schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)',
        );
      },
      async readVersion(client) {
        const row = await client.query<{ version: number }>(
          'SELECT version FROM quiver_schema_versions WHERE component = $1',
          [component],
        );
        return row.rows[0]?.version ?? 0;
      },
      async writeVersion(client, version) {
        await client.query(
          `INSERT INTO quiver_schema_versions (component, version) VALUES ($1, $2)
             ON CONFLICT (component) DO UPDATE SET version = excluded.version`,
          [component, version],
        );
      },
      newerThanKnown: (current, known) =>
        new QuiverError(
          'conflict',
          `The PostgreSQL schema of ${component} is at version ${current}, newer than the ${known} migration(s) this code knows.`,
          {
            fix: 'Upgrade every replica to the same Quiver version, or point this one at a database made for its version.',
            details: { component, databaseVersion: current, knownVersion: known },
          },
        ),
      migrationFailed: (migration, error) =>
        new QuiverError(
          'internal',
          `Migration ${migration} of ${component} failed: ${(error as Error).message}`,
          {
            fix: 'Fix the SQL of that migration; the database was left at the previous version.',
            details: { component, migration },
            cause: error,
          },
        ),
    },
    migrations,
  );
}
