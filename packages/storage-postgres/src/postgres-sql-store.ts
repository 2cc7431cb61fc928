import { AsyncLocalStorage } from 'node:async_hooks';
import {
  QuiverError,
  type SqlChangeFeed,
  type SqlExpressions,
  type SqlParameter,
  type SqlQueryable,
  type SqlStore,
  type SqlTransactionOptions,
} from '@quiver/types';
import type pg from 'pg';
import { isConnectionLoss, reconnectDelay, sleep, storageUnavailable } from './connection-faults.js';
import { assertParameterCount, toPostgresPlaceholders } from './placeholders.js';
import { PORTABLE_ROW_TYPES, portableParameters } from './row-types.js';

/** clock_timestamp(), not now(): the time of the statement, not of the transaction's start. */
const POSTGRES_EXPRESSIONS: SqlExpressions = {
  nowMs: '(extract(epoch FROM clock_timestamp()) * 1000)::bigint',
  jsonField: (column, field) => `(${column}::jsonb ->> '${jsonKey(field)}')`,
};

/** A JSON key spliced into SQL: only letters, digits and underscores, so it never needs quoting. */
function jsonKey(field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`Not a plain JSON key: ${field}`);
  return field;
}

// serialization_failure and deadlock_detected: the transaction did nothing and may simply run again.
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;
// A read, or a transaction the server rolled back when its connection was lost, runs again on a
// new connection at least this many times, and once more than the pool holds connections: after
// a failover every idle pooled connection may be stale, and each is found out only by using it
// (the pool itself waits out a restart while reconnecting).
const MAX_RECONNECT_ATTEMPTS = 3;

function reconnectLimit(pool: pg.Pool): number {
  return Math.max(MAX_RECONNECT_ATTEMPTS, (pool.options.max ?? 0) + 1);
}
const NOT_SENT = /not queryable/;

// Which schema each pooled connection's search_path points at, so a store sets it only when the
// connection last served another store.
const searchPaths = new WeakMap<pg.PoolClient, string>();
const heldTransactions = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * A connection of `pool` with its search_path on `schema`. One that breaks on the way (a pooled
 * connection the server dropped while it sat idle, which nothing told the pool) is replaced; past
 * the pool's size in a row, the lost connection is `storage_unavailable`, never a bare pg error.
 */
async function acquire(pool: pg.Pool, schema: string, where: string): Promise<pg.PoolClient> {
  const tries = reconnectLimit(pool);
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    if (searchPaths.get(client) === schema) return client;
    try {
      await client.query(`SET search_path TO "${schema}"`);
      searchPaths.set(client, schema);
      return client;
    } catch (error) {
      client.release(true);
      if (!isConnectionLoss(error)) throw error;
      if (attempt >= tries) throw storageUnavailable(error, { where, doing: 'connecting' });
      // A stale pooled connection is replaced at once; a server that keeps failing is waited for.
      if (attempt > 1) await sleep(reconnectDelay(attempt - 1));
    }
  }
}

async function query(
  client: pg.PoolClient,
  sql: string,
  params: readonly SqlParameter[],
): Promise<pg.QueryResult<Record<string, unknown>>> {
  const { text, placeholders } = toPostgresPlaceholders(sql);
  assertParameterCount(sql, placeholders, params.length);
  return client.query({
    text,
    values: portableParameters(params),
    types: PORTABLE_ROW_TYPES as pg.CustomTypesConfig,
  });
}

/**
 * `reconnect`: statements outside a transaction, where a read lost with its connection runs
 * again on a new one and a lost write fails with `storage_unavailable` (it may have been
 * applied). Inside a transaction a lost statement is rethrown as it is: the transaction decides.
 */
function queriesOn(
  client: () => Promise<pg.PoolClient>,
  done: (client: pg.PoolClient) => void,
  reconnect: { where: string; limit: number } | undefined,
): SqlQueryable {
  const once = async (sql: string, params: readonly SqlParameter[]) => {
    const connection = await client();
    try {
      return await query(connection, sql, params);
    } finally {
      done(connection);
    }
  };
  const execute = async (sql: string, params: readonly SqlParameter[] = [], read = false) => {
    if (reconnect === undefined) return once(sql, params);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await once(sql, params);
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        // A storage_unavailable already is final: the pool waited out its patience for a connection.
        const final = error instanceof QuiverError;
        if (!read || final || attempt >= reconnect.limit) {
          throw storageUnavailable(error, {
            where: reconnect.where,
            doing: read ? 'reading' : 'writing',
            maybeApplied: !read,
          });
        }
        await sleep(reconnectDelay(attempt));
      }
    }
  };
  return {
    dialect: 'postgres',
    expressions: POSTGRES_EXPRESSIONS,
    async all<Row>(sql: string, params?: readonly SqlParameter[]): Promise<Row[]> {
      return (await execute(sql, params, true)).rows as Row[];
    },
    async get<Row>(sql: string, params?: readonly SqlParameter[]): Promise<Row | undefined> {
      return (await execute(sql, params, true)).rows[0] as Row | undefined;
    },
    async run(sql: string, params?: readonly SqlParameter[]): Promise<{ changes: number }> {
      return { changes: (await execute(sql, params)).rowCount ?? 0 };
    },
  };
}

/** A transaction whose connection was lost; `committing`: it was lost during COMMIT, so it may have been applied. */
class LostTransaction extends Error {
  constructor(
    override readonly cause: unknown,
    readonly committing: boolean,
  ) {
    super('The connection of a transaction was lost.');
  }
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
}

/** The portable `SqlStore` on a PostgreSQL schema (already migrated) through `pool`. */
export function createPostgresSqlStore(
  pool: pg.Pool,
  schema: string,
  name: string,
  changes?: SqlChangeFeed,
): SqlStore {
  const where = `store ${name} (schema ${schema})`;
  const refuseReentry = (): void => {
    if (heldTransactions.getStore()?.has(schema)) {
      throw new QuiverError(
        'internal',
        `A statement on the store ${name} was issued inside one of its own transactions, outside that transaction.`,
        {
          fix: 'Inside transaction(fn), run statements through the tx argument of fn, not through the store.',
        },
      );
    }
  };
  const direct = queriesOn(
    () => {
      refuseReentry();
      return acquire(pool, schema, where);
    },
    (client) => client.release(),
    { where, limit: reconnectLimit(pool) },
  );

  async function attempt<T>(fn: (tx: SqlQueryable) => Promise<T>, serializable: boolean): Promise<T> {
    // Final when it fails: the pool has waited out its patience, or stale connections past its size.
    const client = await acquire(pool, schema, where);
    let finished = false;
    let broken = false;
    const tx = queriesOn(
      async () => {
        if (finished) {
          throw new QuiverError(
            'internal',
            `A statement used the transaction of ${name} after it had ended.`,
            {
              fix: 'Await every statement inside the transaction callback before it returns.',
            },
          );
        }
        return client;
      },
      () => {},
      undefined,
    );
    let committing = false;
    try {
      await client.query(serializable ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN');
      const held = new Set(heldTransactions.getStore() ?? []).add(schema);
      const result = await heldTransactions.run(held, () => fn(tx));
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      // Lost before COMMIT went out: the server rolled the transaction back, and it may run again.
      // A client already known to be broken refuses COMMIT without sending it.
      if (isConnectionLoss(error))
        throw new LostTransaction(error, committing && !NOT_SENT.test((error as Error).message));
      throw error;
    } finally {
      finished = true;
      client.release(broken);
    }
  }

  return {
    ...direct,
    name,
    ...(changes ? { changes } : {}),
    async transaction<T>(
      fn: (tx: SqlQueryable) => Promise<T>,
      options: SqlTransactionOptions = {},
    ): Promise<T> {
      refuseReentry();
      const serializable = options.isolation === 'serializable';
      let reconnects = 0;
      for (let attempts = 1; ; attempts += 1) {
        try {
          return await attempt(fn, serializable);
        } catch (error) {
          if (error instanceof LostTransaction) {
            reconnects += 1;
            if (error.committing || reconnects >= reconnectLimit(pool)) {
              throw storageUnavailable(error.cause, {
                where,
                doing: 'running a transaction',
                maybeApplied: error.committing,
              });
            }
            attempts -= 1;
            await sleep(reconnectDelay(reconnects));
            continue;
          }
          const code = (error as { code?: unknown }).code;
          if (typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
          if (attempts >= MAX_ATTEMPTS) {
            throw new QuiverError(
              'conflict',
              `A transaction on the store ${name} conflicted with concurrent ones ${attempts} times in a row and was given up.`,
              {
                fix: 'Retry the operation; if it keeps failing, shorten the transaction or lower its contention.',
                details: { name, attempts, sqlState: code },
                cause: error,
              },
            );
          }
          await pause(attempts);
        }
      }
    },
  };
}
