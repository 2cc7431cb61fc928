import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parsePermissionRule } from './rule.js';

const SCHEMA_VERSION = 1;

export interface ProjectGrantStoreOptions {
  /** The data directory (default `.quiver/` in the workspace); grants go to `<dataDir>/permissions.db`. */
  dataDir: string;
}

/** Rules granted for a project; saved in SQLite so they survive restarts. */
export class ProjectGrantStore {
  readonly #database: Database.Database;

  constructor(options: ProjectGrantStoreOptions) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    this.#database = new Database(path.join(options.dataDir, 'permissions.db'));
    this.#database.pragma('journal_mode = WAL');
    this.#migrate();
  }

  #migrate(): void {
    const version = this.#database.pragma('user_version', { simple: true }) as number;
    if (version >= SCHEMA_VERSION) return;
    this.#database.transaction(() => {
      this.#database.exec(
        'CREATE TABLE IF NOT EXISTS permission_grants (rule TEXT PRIMARY KEY, granted_at TEXT NOT NULL)',
      );
      this.#database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }

  add(rule: string): void {
    const source = parsePermissionRule(rule).source;
    this.#database.transaction(() => {
      this.#database
        .prepare('INSERT OR IGNORE INTO permission_grants (rule, granted_at) VALUES (?, ?)')
        .run(source, new Date().toISOString());
    })();
  }

  remove(rule: string): boolean {
    return this.#database.transaction(
      () =>
        this.#database.prepare('DELETE FROM permission_grants WHERE rule = ?').run(rule.trim()).changes > 0,
    )();
  }

  list(): string[] {
    return (
      this.#database.prepare('SELECT rule FROM permission_grants ORDER BY granted_at, rule').all() as Array<{
        rule: string;
      }>
    ).map((row) => row.rule);
  }

  close(): void {
    this.#database.close();
  }
}
