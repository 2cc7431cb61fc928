/** Where a plugin's data lives: per personality, per project, or per user. */
export type StorageScope = 'personality' | 'project' | 'user';

/** Which SQL a store speaks, for the few statements that differ (full-text search, upserts of old SQLite). */
export type SqlDialect = 'sqlite' | 'postgres';

/** Booleans are stored as 0/1 and bigints as integers in both dialects. */
export type SqlParameter = string | number | bigint | boolean | null | Uint8Array;

/**
 * Statements with `?` placeholders in both dialects; the PostgreSQL layer rewrites them to
 * `$1`… (never inside quotes, identifiers, dollar-quoted strings or comments). Rows look the same
 * on both backends: integers (COUNT and BIGINT included) come back as `number` (as `bigint` only
 * past 2^53), booleans as 0/1, and timestamps as the text or integer milliseconds the plugin
 * stored — never as `Date`.
 */
export interface SqlQueryable {
  readonly dialect: SqlDialect;
  all<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParameter[]): Promise<Row[]>;
  get<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParameter[]): Promise<Row | undefined>;
  run(sql: string, params?: readonly SqlParameter[]): Promise<{ changes: number }>;
}

export interface SqlTransactionOptions {
  isolation?: 'serializable';
}

/** A database of one scope, migrated, on whichever backend the host runs. */
export interface SqlStore extends SqlQueryable {
  readonly name: string;
  /**
   * Runs `fn` in one transaction, committed when it resolves and rolled back when it throws.
   * SQLite: BEGIN IMMEDIATE on this connection, serialized with every other use of it.
   * PostgreSQL: one pooled connection, READ COMMITTED unless `isolation: 'serializable'`;
   * a serialization failure or deadlock re-runs `fn` (up to a few times), so `fn` must have
   * no effects outside `tx`. Use only `tx` inside `fn`: the store itself waits for the
   * transaction to end.
   */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>, options?: SqlTransactionOptions): Promise<T>;
}

/** Migrations for each dialect; index + 1 is the schema version both produce. */
export interface PortableMigrations {
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}

export interface ConnectStoreOptions {
  scope: StorageScope;
  migrations: PortableMigrations;
}
