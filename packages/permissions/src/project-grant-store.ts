import path from 'node:path';
import { openDatabase, withStoreFaults } from '@quiver/storage-sqlite';
import type Database from 'better-sqlite3';
import type { ProjectGrants } from './project-grants.js';
import { parsePermissionRule } from './rule.js';

/** Migration i brings the schema to version i + 1 (see storage-sqlite's applyMigrations). */
const GRANT_MIGRATIONS = [
  'CREATE TABLE IF NOT EXISTS permission_grants (rule TEXT PRIMARY KEY, granted_at TEXT NOT NULL)',
];

export interface ProjectGrantStoreOptions {
  /** The data directory (default `.quiver/` in the workspace); grants go to `<dataDir>/permissions.db`. */
  dataDir: string;
}

/**
 * Rules granted for a project; saved in SQLite so they survive restarts. Every permission decision
 * reads them, so they are kept in memory: a write through this store drops the copy, and a write
 * by any other connection (another process's `quiver permit`) changes SQLite's `data_version`,
 * which `list` checks before answering from memory.
 */
export class ProjectGrantStore implements ProjectGrants {
  readonly #database: Database.Database;
  readonly #dataVersion: Database.Statement;
  readonly #select: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #delete: Database.Statement;
  #rules: readonly string[] | undefined;
  #rulesVersion = -1;

  readonly path: string;

  constructor(options: ProjectGrantStoreOptions) {
    this.path = path.join(options.dataDir, 'permissions.db');
    // The one opener: WAL, a busy timeout and migrations applied once across processes.
    this.#database = openDatabase(this.path, GRANT_MIGRATIONS) as unknown as Database.Database;
    this.#dataVersion = this.#database.prepare('PRAGMA data_version').pluck();
    this.#select = this.#database
      .prepare('SELECT rule FROM permission_grants ORDER BY granted_at, rule')
      .pluck();
    this.#insert = this.#database.prepare(
      'INSERT OR IGNORE INTO permission_grants (rule, granted_at) VALUES (?, ?)',
    );
    this.#delete = this.#database.prepare('DELETE FROM permission_grants WHERE rule = ?');
  }

  add(rule: string): void {
    const source = parsePermissionRule(rule).source;
    withStoreFaults(this.path, 'saving a grant', () => this.#insert.run(source, new Date().toISOString()));
    this.#rules = undefined;
  }

  remove(rule: string): boolean {
    const removed = withStoreFaults(
      this.path,
      'removing a grant',
      () => this.#delete.run(rule.trim()).changes > 0,
    );
    this.#rules = undefined;
    return removed;
  }

  list(): string[] {
    return withStoreFaults(this.path, 'reading the saved grants', () => {
      const version = this.#dataVersion.get() as number;
      if (this.#rules === undefined || version !== this.#rulesVersion) {
        this.#rules = this.#select.all() as string[];
        this.#rulesVersion = version;
      }
      return [...(this.#rules ?? [])];
    });
  }

  close(): void {
    this.#database.close();
  }
}
