import type { PortableMigrations, SqlStore } from '@quiver/types';
import type { ProjectGrants } from './project-grants.js';
import { parsePermissionRule } from './rule.js';

/**
 * The grant table on either backend; index + 1 is the schema version. SQLite's first version
 * predates the project column (a file holds one project's grants): its second one adds it, the
 * rows kept under the project ''. Version 3 records the signed-in caller whose session asked.
 */
export const PROJECT_GRANT_MIGRATIONS: PortableMigrations = {
  sqlite: [
    'CREATE TABLE IF NOT EXISTS permission_grants (rule TEXT PRIMARY KEY, granted_at TEXT NOT NULL)',
    `CREATE TABLE permission_grants_by_project (
       project TEXT NOT NULL,
       rule TEXT NOT NULL,
       granted_at TEXT NOT NULL,
       PRIMARY KEY (project, rule)
     );
     INSERT INTO permission_grants_by_project (project, rule, granted_at)
       SELECT '', rule, granted_at FROM permission_grants;
     DROP TABLE permission_grants;
     ALTER TABLE permission_grants_by_project RENAME TO permission_grants;`,
    'ALTER TABLE permission_grants ADD COLUMN caller TEXT',
  ],
  postgres: [
    `CREATE TABLE permission_grants (
       project TEXT NOT NULL,
       rule TEXT NOT NULL,
       granted_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
       PRIMARY KEY (project, rule)
     )`,
    '-- Version 2 is where SQLite caught up with the project column PostgreSQL started with.',
    'ALTER TABLE permission_grants ADD COLUMN caller TEXT',
  ],
};

/** A saved grant and the signed-in caller whose session asked for it. */
export interface SavedGrant {
  rule: string;
  caller?: string;
}

export interface ProjectGrantStoreOptions {
  /** A store migrated with `PROJECT_GRANT_MIGRATIONS` (the host opens it on its backend). */
  store: SqlStore;
  /** Which project's grants, where one database holds several (replicas on PostgreSQL); default ''. */
  project?: string;
  /** Called by `close` (the opener's own cleanup, such as closing a SQLite file). */
  onClose?: () => void | Promise<void>;
}

/**
 * Rules granted for a project, saved so that they survive restarts and reach every process (and
 * every replica) on the same store. Nothing is cached: the engine reads the grants only for
 * decisions the configured rules do not allow, and each read is one indexed query, so a grant
 * saved or revoked elsewhere holds at the next such decision.
 */
export class ProjectGrantStore implements ProjectGrants {
  readonly #store: SqlStore;
  readonly #project: string;
  readonly #onClose: (() => void | Promise<void>) | undefined;

  constructor(options: ProjectGrantStoreOptions) {
    this.#store = options.store;
    this.#project = options.project ?? '';
    this.#onClose = options.onClose;
  }

  async add(rule: string, caller?: string): Promise<void> {
    const source = parsePermissionRule(rule).source;
    // A transaction: PostgreSQL re-runs it on a new connection when the old one is lost before COMMIT.
    await this.#store.transaction((tx) =>
      tx.run(
        'INSERT INTO permission_grants (project, rule, granted_at, caller) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [this.#project, source, new Date().toISOString(), caller ?? null],
      ),
    );
  }

  async remove(rule: string): Promise<boolean> {
    const { changes } = await this.#store.run(
      'DELETE FROM permission_grants WHERE project = ? AND rule = ?',
      [this.#project, rule.trim()],
    );
    return changes > 0;
  }

  async list(): Promise<readonly string[]> {
    const rows = await this.#store.all<{ rule: string }>(
      'SELECT rule FROM permission_grants WHERE project = ? ORDER BY granted_at, rule',
      [this.#project],
    );
    return rows.map((row) => row.rule);
  }

  /** The saved grants with who asked for each (the signed-in caller of a serve, when there was one). */
  async saved(): Promise<SavedGrant[]> {
    const rows = await this.#store.all<{ rule: string; caller: string | null }>(
      'SELECT rule, caller FROM permission_grants WHERE project = ? ORDER BY granted_at, rule',
      [this.#project],
    );
    return rows.map((row) =>
      row.caller === null ? { rule: row.rule } : { rule: row.rule, caller: row.caller },
    );
  }

  async close(): Promise<void> {
    await this.#onClose?.();
  }
}
