import { applyPostgresMigrations, retryIdempotent } from '@quiver/storage-postgres';
import type pg from 'pg';
import type { ProjectGrants } from './project-grants.js';
import { parsePermissionRule } from './rule.js';

/** Migration i brings the `permissions` schema to version i + 1 (see applyPostgresMigrations). */
const GRANT_MIGRATIONS = [
  `CREATE TABLE permission_grants (
     project TEXT NOT NULL,
     rule TEXT NOT NULL,
     granted_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
     PRIMARY KEY (project, rule)
   )`,
];

export interface PostgresProjectGrantStoreOptions {
  /** A pool from `connectPostgres`; the caller owns it (this store never ends it). */
  pool: pg.Pool;
  /** Which project's grants: replicas serving one project use the same key. */
  project: string;
}

/**
 * A project's grants in PostgreSQL, shared by every replica on the database. Each decision reads
 * them (one indexed query), so a grant saved through one replica holds on the next decision of
 * any other; nothing is cached that another replica could make stale.
 */
export class PostgresProjectGrantStore implements ProjectGrants {
  readonly #pool: pg.Pool;
  readonly #project: string;

  private constructor(options: PostgresProjectGrantStoreOptions) {
    this.#pool = options.pool;
    this.#project = options.project;
  }

  static async open(options: PostgresProjectGrantStoreOptions): Promise<PostgresProjectGrantStore> {
    await applyPostgresMigrations(options.pool, 'permissions', GRANT_MIGRATIONS);
    return new PostgresProjectGrantStore(options);
  }

  async add(rule: string): Promise<void> {
    const source = parsePermissionRule(rule).source;
    await retryIdempotent(() =>
      this.#pool.query(
        'INSERT INTO permission_grants (project, rule) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [this.#project, source],
      ),
    );
  }

  async remove(rule: string): Promise<boolean> {
    const result = await retryIdempotent(() =>
      this.#pool.query('DELETE FROM permission_grants WHERE project = $1 AND rule = $2', [
        this.#project,
        rule.trim(),
      ]),
    );
    return (result.rowCount ?? 0) > 0;
  }

  async list(): Promise<readonly string[]> {
    const result = await retryIdempotent(() =>
      this.#pool.query<{ rule: string }>(
        'SELECT rule FROM permission_grants WHERE project = $1 ORDER BY granted_at, rule',
        [this.#project],
      ),
    );
    return result.rows.map((row) => row.rule);
  }

  /** The pool belongs to whoever opened it. */
  close(): void {}
}
