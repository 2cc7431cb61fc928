import { AsyncLocalStorage } from 'node:async_hooks';
import {
  QuiverError,
  type SqlDatabase,
  type SqlExpressions,
  type SqlParameter,
  type SqlQueryable,
  type SqlStatement,
  type SqlStore,
} from '@quiver/types';
import { describeStoreFault } from './store-faults.js';

/**
 * Everything that touches one connection runs in this order, one at a time: a transaction holds
 * the connection from BEGIN to COMMIT while its callback awaits, so another caller's statement
 * queued meanwhile can never land inside it.
 */
interface ConnectionQueue {
  tail: Promise<unknown>;
  statements: Map<string, SqlStatement>;
}

const queues = new WeakMap<SqlDatabase, ConnectionQueue>();
// Which connections the current async context holds a transaction on: using the store (rather
// than `tx`) there would wait for its own transaction forever.
const heldTransactions = new AsyncLocalStorage<ReadonlySet<SqlDatabase>>();
const STATEMENT_CACHE_LIMIT = 256;

function queueOf(database: SqlDatabase): ConnectionQueue {
  let queue = queues.get(database);
  if (queue === undefined) {
    queue = { tail: Promise.resolve(), statements: new Map() };
    queues.set(database, queue);
  }
  return queue;
}

function enqueue<T>(database: SqlDatabase, work: () => T | Promise<T>): Promise<T> {
  const queue = queueOf(database);
  const result = queue.tail.then(work);
  queue.tail = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

function prepared(database: SqlDatabase, sql: string): SqlStatement {
  const { statements } = queueOf(database);
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = database.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
    statements.set(sql, statement);
  }
  return statement;
}

// better-sqlite3 binds neither booleans nor plain Uint8Arrays.
function bindable(params: readonly SqlParameter[]): unknown[] {
  return params.map((value) => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    return value;
  });
}

/** Integer milliseconds, not whole seconds: julianday('now') keeps the fraction. */
const SQLITE_EXPRESSIONS: SqlExpressions = {
  nowMs: "CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER)",
  jsonField: (column, field) => `json_extract(${column}, '$.${jsonKey(field)}')`,
};

/** A JSON key spliced into SQL: only letters, digits and underscores, so it never needs quoting. */
function jsonKey(field: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`Not a plain JSON key: ${field}`);
  return field;
}

function directQueries(database: () => SqlDatabase, usable: () => void): SqlQueryable {
  return {
    dialect: 'sqlite',
    expressions: SQLITE_EXPRESSIONS,
    async all<Row>(sql: string, params: readonly SqlParameter[] = []): Promise<Row[]> {
      usable();
      return prepared(database(), sql).all(...bindable(params)) as Row[];
    },
    async get<Row>(sql: string, params: readonly SqlParameter[] = []): Promise<Row | undefined> {
      usable();
      return prepared(database(), sql).get(...bindable(params)) as Row | undefined;
    },
    async run(sql: string, params: readonly SqlParameter[] = []): Promise<{ changes: number }> {
      usable();
      return { changes: prepared(database(), sql).run(...bindable(params)).changes };
    },
  };
}

function refuseReentry(name: string, database: SqlDatabase): void {
  if (heldTransactions.getStore()?.has(database)) {
    throw new QuiverError(
      'internal',
      `A statement on the store ${name} was issued inside one of its own transactions, which would wait for that transaction forever.`,
      { fix: 'Inside transaction(fn), run statements through the tx argument of fn, not through the store.' },
    );
  }
}

/**
 * The portable `SqlStore` over a SQLite connection. `database` is asked for the connection at
 * each use, so a store outlives a backend's `close()` the way handles do (the file reopens).
 */
export function createSqliteSqlStore(name: string, database: () => SqlDatabase): SqlStore {
  // A damaged, full or unwritable file fails with the error that names it and the fix.
  const named = (connection: SqlDatabase, error: unknown): unknown =>
    describeStoreFault(error, connection.name, `reading or writing the store ${name}`) ?? error;
  const queued =
    <A extends unknown[], R>(operation: (queries: SqlQueryable, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const connection = database();
      refuseReentry(name, connection);
      return enqueue(connection, () =>
        operation(
          directQueries(
            () => connection,
            () => {},
          ),
          ...args,
        ),
      ).catch((error: unknown) => {
        throw named(connection, error);
      });
    };
  return {
    dialect: 'sqlite',
    expressions: SQLITE_EXPRESSIONS,
    name,
    all: queued((queries, sql: string, params?: readonly SqlParameter[]) => queries.all(sql, params)),
    get: queued((queries, sql: string, params?: readonly SqlParameter[]) => queries.get(sql, params)),
    run: queued((queries, sql: string, params?: readonly SqlParameter[]) => queries.run(sql, params)),
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const connection = database();
      refuseReentry(name, connection);
      return enqueue(connection, async () => {
        let finished = false;
        const tx = directQueries(
          () => connection,
          () => {
            if (finished) {
              throw new QuiverError(
                'internal',
                `A statement used the transaction of ${name} after it had ended.`,
                { fix: 'Await every statement inside the transaction callback before it returns.' },
              );
            }
          },
        );
        const held = new Set(heldTransactions.getStore() ?? []).add(connection);
        prepared(connection, 'BEGIN IMMEDIATE').run();
        try {
          const result = await heldTransactions.run(held, () => fn(tx));
          prepared(connection, 'COMMIT').run();
          return result;
        } catch (error) {
          if ((connection as { inTransaction?: boolean }).inTransaction)
            prepared(connection, 'ROLLBACK').run();
          throw error;
        } finally {
          finished = true;
        }
      }).catch((error: unknown) => {
        throw named(connection, error);
      });
    },
  } as SqlStore;
}
