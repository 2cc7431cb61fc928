import { QuiverError } from '@quiver/types';
import pg from 'pg';
import { assertPostgresUrl, redactPostgresUrl } from './postgres-url.js';

export interface PostgresConnectionOptions {
  url: string;
  /** Where the URL came from, for error messages (`the QUIVER_DATABASE_URL environment variable`). */
  source?: string;
  /** Shown in `pg_stat_activity`; default `quiver`. */
  applicationName?: string;
  /** Connections this pool may open; default 10. */
  maxConnections?: number;
  /** How long connecting may take before it fails; default 5000 ms. */
  connectTimeoutMs?: number;
}

/**
 * A connection pool to the storage database, checked with one round trip so that a wrong URL
 * fails at startup with the URL (without its password) and what to check, not at the first call.
 */
export async function connectPostgres(options: PostgresConnectionOptions): Promise<pg.Pool> {
  const source = options.source ?? 'the storage configuration';
  assertPostgresUrl(options.url, source);
  const pool = new pg.Pool({
    connectionString: options.url,
    application_name: options.applicationName ?? 'quiver',
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  // An idle connection the server drops (restart, failover) must not crash the process; the
  // next query opens a new one.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    const shown = redactPostgresUrl(options.url);
    throw new QuiverError('config_invalid', `Cannot reach the PostgreSQL storage at ${shown}: ${reason}.`, {
      fix: `Check that the server is running and reachable from this host, and that the user, password and database in ${source} are right.`,
      details: { url: shown, source },
      cause: error,
    });
  }
  return pool;
}
