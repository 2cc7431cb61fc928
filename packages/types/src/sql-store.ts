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
  /** SQL that differs by dialect, for statements written once. */
  readonly expressions: SqlExpressions;
  all<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParameter[]): Promise<Row[]>;
  get<Row = Record<string, unknown>>(sql: string, params?: readonly SqlParameter[]): Promise<Row | undefined>;
  run(sql: string, params?: readonly SqlParameter[]): Promise<{ changes: number }>;
}

/** Expressions spliced into statement text where the dialects differ. */
export interface SqlExpressions {
  /**
   * The database's clock in integer milliseconds since 1970: the same clock for every process on
   * the store, so replicas with skewed clocks agree on what is old.
   */
  readonly nowMs: string;
  /** The text of `field` (a top-level key, a literal of the caller's) in the JSON text of `column`; NULL when absent. */
  jsonField(column: string, field: string): string;
}

/**
 * Notices between the processes sharing a store, where the backend carries them (PostgreSQL's
 * LISTEN/NOTIFY): a store that caches rows hears that another process changed them. A process
 * does not hear its own notices.
 */
export interface SqlChangeFeed {
  /** Tells the other listeners of `topic` that something changed. */
  notify(topic: string): Promise<void>;
  /**
   * Calls `onChange` when another process notified `topic`, and again once a lost listening
   * connection is back (notices sent meanwhile were missed); `onLost` hears of the loss.
   * Resolves, once listening, to the function that stops.
   */
  listen(topic: string, onChange: () => void, onLost?: (error: Error) => void): Promise<() => Promise<void>>;
}

export interface SqlTransactionOptions {
  isolation?: 'serializable';
}

/** A database of one scope, migrated, on whichever backend the host runs. */
export interface SqlStore extends SqlQueryable {
  readonly name: string;
  /** Present where the backend carries notices between processes (PostgreSQL stores the host opens for itself). */
  readonly changes?: SqlChangeFeed;
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
