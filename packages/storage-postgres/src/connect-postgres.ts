import { errorMessage, QuiverError } from '@quiver/types';
import pg from 'pg';
import { isConnectionLoss, reconnectDelay, sleep, storageUnavailable } from './connection-faults.js';
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
  /**
   * How long a checkout keeps reconnecting (with backoff) while the server is unreachable, once
   * the pool has started, before the statement fails with `storage_unavailable`; default 15000 ms.
   */
  reconnectPatienceMs?: number;
}

export const DEFAULT_RECONNECT_PATIENCE_MS = 15_000;

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: () => void,
) => void;

/**
 * Every connection has an 'error' listener from the moment it exists, checked out or idle: pg
 * removes the pool's own listener while a client is checked out, and an 'error' event without a
 * listener ends the process. The statement in flight (if any) fails with the error itself; the
 * client is then not queryable and the pool discards it on release.
 */
function handleEveryConnectionError(pool: pg.Pool): void {
  // An idle connection the server dropped: pg has removed it; the next checkout opens a new one.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
}

/**
 * Makes connection faults ordinary weather for every user of the pool, in one place:
 * - a checkout reconnects with backoff for `patienceMs` while the server is down or restarting;
 * - `pool.query` fails a statement whose connection was lost with `storage_unavailable`.
 */
function weatherConnectionFaults(pool: pg.Pool, where: string, patienceMs: number): void {
  const connectOnce = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const connectPatiently = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + patienceMs;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await connectOnce();
      } catch (error) {
        if (!isConnectionLoss(error) || pool.ending) throw error;
        const wait = reconnectDelay(attempt);
        if (Date.now() + wait > deadline)
          throw storageUnavailable(error, { where, doing: `connecting (for ${patienceMs} ms)` });
        await sleep(wait);
      }
    }
  };
  (pool as { connect: unknown }).connect = (callback?: ConnectCallback) => {
    const connecting = connectPatiently();
    if (callback === undefined) return connecting;
    connecting.then(
      (client) => callback(undefined, client, () => client.release()),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  };
  const queryOnce = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    if (typeof args[args.length - 1] === 'function') return queryOnce(...args);
    return queryOnce(...args).catch((error: unknown) => {
      if (!isConnectionLoss(error)) throw error;
      throw storageUnavailable(error, { where, doing: 'running a statement', maybeApplied: true });
    });
  };
}

/**
 * A connection pool to the storage database, checked with one round trip so that a wrong URL
 * fails at startup with the URL (without its password) and what to check, not at the first call.
 * After that, a lost connection fails only the statements in flight: see `weatherConnectionFaults`.
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
  const shown = redactPostgresUrl(options.url);
  handleEveryConnectionError(pool);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = errorMessage(error);
    throw new QuiverError('config_invalid', `Cannot reach the PostgreSQL storage at ${shown}: ${reason}.`, {
      fix: `Check that the server is running and reachable from this host, and that the user, password and database in ${source} are right.`,
      details: { url: shown, source },
      cause: error,
    });
  }
  weatherConnectionFaults(pool, shown, options.reconnectPatienceMs ?? DEFAULT_RECONNECT_PATIENCE_MS);
  return pool;
}
