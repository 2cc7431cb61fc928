import { AsyncLocalStorage } from 'node:async_hooks';
import {
  QuiverError,
  type SqlParameter,
  type SqlQueryable,
  type SqlStore,
  type SqlTransactionOptions,
} from '@quiver/types';
import type pg from 'pg';
import { assertParameterCount, toPostgresPlaceholders } from './placeholders.js';
import { PORTABLE_ROW_TYPES, portableParameters } from './row-types.js';

// serialization_failure and deadlock_detected: the transaction did nothing and may simply run again.
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

// Which schema each pooled connection's search_path points at, so a store sets it only when the
// connection last served another store.
const searchPaths = new WeakMap<pg.PoolClient, string>();
const heldTransactions = new AsyncLocalStorage<ReadonlySet<string>>();

async function acquire(pool: pg.Pool, schema: string): Promise<pg.PoolClient> {
  const client = await pool.connect();
  if (searchPaths.get(client) === schema) return client;
  try {
    await client.query(`SET search_path TO "${schema}"`);
  } catch (error) {
    client.release(true);
    throw error;
  }
  searchPaths.set(client, schema);
  return client;
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

function queriesOn(
  client: () => Promise<pg.PoolClient>,
  done: (client: pg.PoolClient) => void,
): SqlQueryable {
  const execute = async (sql: string, params: readonly SqlParameter[] = []) => {
    const connection = await client();
    try {
      return await query(connection, sql, params);
    } finally {
      done(connection);
    }
  };
  return {
    dialect: 'postgres',
    async all<Row>(sql: string, params?: readonly SqlParameter[]): Promise<Row[]> {
      return (await execute(sql, params)).rows as Row[];
    },
    async get<Row>(sql: string, params?: readonly SqlParameter[]): Promise<Row | undefined> {
      return (await execute(sql, params)).rows[0] as Row | undefined;
    },
    async run(sql: string, params?: readonly SqlParameter[]): Promise<{ changes: number }> {
      return { changes: (await execute(sql, params)).rowCount ?? 0 };
    },
  };
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
}

/** The portable `SqlStore` on a PostgreSQL schema (already migrated) through `pool`. */
export function createPostgresSqlStore(pool: pg.Pool, schema: string, name: string): SqlStore {
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
      return acquire(pool, schema);
    },
    (client) => client.release(),
  );

  async function attempt<T>(fn: (tx: SqlQueryable) => Promise<T>, serializable: boolean): Promise<T> {
    const client = await acquire(pool, schema);
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
    );
    try {
      await client.query(serializable ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN');
      const held = new Set(heldTransactions.getStore() ?? []).add(schema);
      const result = await heldTransactions.run(held, () => fn(tx));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      finished = true;
      client.release(broken);
    }
  }

  return {
    ...direct,
    name,
    async transaction<T>(
      fn: (tx: SqlQueryable) => Promise<T>,
      options: SqlTransactionOptions = {},
    ): Promise<T> {
      refuseReentry();
      const serializable = options.isolation === 'serializable';
      for (let attempts = 1; ; attempts += 1) {
        try {
          return await attempt(fn, serializable);
        } catch (error) {
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
