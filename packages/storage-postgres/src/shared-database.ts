import type { PortableMigrations, SqlParameter, SqlStore } from '@quiver/types';
import type pg from 'pg';
import { createPostgresChangeFeed } from './change-feed.js';
import { connectPostgres, type PostgresConnectionOptions } from './connect-postgres.js';
import { applyPostgresMigrations } from './migrations.js';
import { createPostgresSqlStore } from './postgres-sql-store.js';
import { openPostgresStorageBackend, type PostgresStorageBackend } from './postgres-storage-backend.js';
import { ReplicaLease } from './replica-lease.js';

export interface SharedDatabaseOptions extends PostgresConnectionOptions {
  /** Identity of the project: every replica of one project gives the same. */
  project: string;
  /** Join the replicas with a lease of this length (a serving host); omit for a short-lived reader. */
  leaseMs?: number;
}

/** This process among the replicas sharing the database. */
export interface ReplicaMembership {
  readonly id: string;
  readonly leaseMs: number;
  /**
   * A condition true when the replica whose id is in `column` stopped or let its lease run out,
   * with `params` for its `?` placeholders (in this order).
   */
  deadCondition(column: string): { sql: string; params: SqlParameter[] };
}

/**
 * The host's view of a PostgreSQL database every replica of a project shares: migrated stores
 * for the host's own concerns (with a change feed), the `storage` capability for plugins, and
 * this process's replica lease. `close` ends them all.
 */
export interface SharedDatabase {
  readonly project: string;
  /** Undefined when opened without `leaseMs`. */
  readonly replica: ReplicaMembership | undefined;
  /** One concern's store (see `openPostgresHostStore`), with `changes`. */
  openStore(concern: string, migrations: PortableMigrations): Promise<SqlStore>;
  /** The `storage` capability for plugins' tools, on its own pool (closed with this). */
  openStorageBackend(): Promise<PostgresStorageBackend>;
  close(): Promise<void>;
}

/** Connects (failing at once with the URL without its password when it cannot), and joins the replicas when asked to. */
export async function openSharedDatabase(options: SharedDatabaseOptions): Promise<SharedDatabase> {
  const pool: pg.Pool = await connectPostgres(options);
  const feed = createPostgresChangeFeed(pool);
  const backends: PostgresStorageBackend[] = [];
  let lease: ReplicaLease | undefined;
  let schema: Promise<string> | undefined;
  try {
    if (options.leaseMs !== undefined) lease = await ReplicaLease.start(pool, { leaseMs: options.leaseMs });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const replica: ReplicaMembership | undefined =
    lease === undefined
      ? undefined
      : {
          id: lease.id,
          leaseMs: lease.leaseMs,
          deadCondition: (column) => ({
            sql: ReplicaLease.deadCondition(column, '?'),
            params: [lease?.leaseMs ?? 0],
          }),
        };
  let closed: Promise<void> | undefined;
  return {
    project: options.project,
    replica,
    async openStore(concern, migrations) {
      await applyPostgresMigrations(pool, concern, migrations.postgres);
      schema ??= pool
        .query<{ schema: string | null }>('SELECT current_schema() AS schema')
        .then((result) => result.rows[0]?.schema ?? 'public');
      return createPostgresSqlStore(pool, await schema, concern, feed);
    },
    async openStorageBackend() {
      const { project, url, source } = options;
      const backend = await openPostgresStorageBackend({ url, project, ...(source ? { source } : {}) });
      backends.push(backend);
      return backend;
    },
    close() {
      closed ??= (async () => {
        await feed.close();
        await lease?.stop().catch(() => {});
        await Promise.all(backends.map((backend) => backend.close().catch(() => {})));
        await pool.end();
      })();
      return closed;
    },
  };
}
