import { QuiverError } from '@quiver/types';
import type pg from 'pg';

// One key for every component: migrations are rare, and one lock cannot deadlock with itself.
const MIGRATION_LOCK_KEY = 0x71756976; // "quiv"

/**
 * Brings `component`'s schema to `migrations.length`: migration i produces version i + 1,
 * recorded in `quiver_schema_versions`. Each migration runs in its own transaction under an
 * advisory lock, re-reading the version inside it, so replicas starting at once apply each one
 * exactly once; a failed migration leaves the previous version. Postgres DDL is transactional,
 * so a migration is all or nothing.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  component: string,
  migrations: readonly string[],
): Promise<number> {
  const known = migrations.length;
  for (;;) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS quiver_schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)',
      );
      const row = await client.query<{ version: number }>(
        'SELECT version FROM quiver_schema_versions WHERE component = $1',
        [component],
      );
      const current = row.rows[0]?.version ?? 0;
      if (current > known) {
        throw new QuiverError(
          'conflict',
          `The PostgreSQL schema of ${component} is at version ${current}, newer than the ${known} migration(s) this code knows.`,
          {
            fix: 'Upgrade every replica to the same Quiver version, or point this one at a database made for its version.',
            details: { component, databaseVersion: current, knownVersion: known },
          },
        );
      }
      if (current === known) {
        await client.query('COMMIT');
        return current;
      }
      try {
        await client.query(migrations[current] as string);
      } catch (error) {
        throw new QuiverError(
          'internal',
          `Migration ${current + 1} of ${component} failed: ${(error as Error).message}`,
          {
            fix: 'Fix the SQL of that migration; the database was left at the previous version.',
            details: { component, migration: current + 1 },
            cause: error,
          },
        );
      }
      await client.query(
        `INSERT INTO quiver_schema_versions (component, version) VALUES ($1, $2)
           ON CONFLICT (component) DO UPDATE SET version = excluded.version`,
        [component, current + 1],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
