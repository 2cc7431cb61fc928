import type { PortableMigrations, SqlStore } from '@quiver/types';

/**
 * Index + 1 is the schema version. PostgreSQL's first version kept JSONB, an array and a
 * timestamp; its second holds what both dialects hold: JSON text and the database clock in ms.
 */
export const SERVE_SESSION_MIGRATIONS: PortableMigrations = {
  sqlite: [
    `CREATE TABLE quiver_serve_sessions (
       project TEXT NOT NULL,
       id TEXT NOT NULL,
       quiver_session_id TEXT NOT NULL,
       initialize TEXT NOT NULL,
       revealed_tools TEXT NOT NULL DEFAULT '[]',
       last_seen INTEGER NOT NULL,
       PRIMARY KEY (project, id)
     )`,
    '-- Version 2 is where PostgreSQL caught up with the columns SQLite started with.',
  ],
  postgres: [
    `CREATE TABLE quiver_serve_sessions (
       project TEXT NOT NULL,
       id TEXT NOT NULL,
       quiver_session_id TEXT NOT NULL,
       initialize JSONB NOT NULL,
       revealed_tools TEXT[] NOT NULL DEFAULT '{}',
       last_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
       PRIMARY KEY (project, id)
     )`,
    `ALTER TABLE quiver_serve_sessions ALTER COLUMN revealed_tools DROP DEFAULT;
     ALTER TABLE quiver_serve_sessions
       ALTER COLUMN revealed_tools TYPE TEXT USING array_to_json(revealed_tools)::text;
     ALTER TABLE quiver_serve_sessions ALTER COLUMN revealed_tools SET DEFAULT '[]';
     ALTER TABLE quiver_serve_sessions ALTER COLUMN initialize TYPE TEXT USING initialize::text;
     ALTER TABLE quiver_serve_sessions ALTER COLUMN last_seen DROP DEFAULT;
     ALTER TABLE quiver_serve_sessions
       ALTER COLUMN last_seen TYPE BIGINT USING (extract(epoch FROM last_seen) * 1000)::bigint;`,
  ],
};

/** What another replica needs to answer a request of an MCP session it has never seen. */
export interface ServeSessionRecord {
  /** The Mcp-Session-Id. */
  id: string;
  quiverSessionId: string;
  /** The params of the client's initialize request, replayed when a replica rebuilds the session. */
  initialize: Record<string, unknown>;
  /** Tools tool_search found, oldest first: shown in full on every replica. */
  revealedTools: string[];
}

interface RecordRow {
  quiver_session_id: string;
  initialize: string;
  revealed_tools: string;
}

/**
 * The MCP sessions of `quiver serve --http` that every replica sharing the store can answer.
 * Liveness uses the database's clock, so replicas with skewed clocks agree on what is idle.
 * Writes run as transactions, which the PostgreSQL store re-runs on a new connection when the
 * old one is lost before COMMIT: each of them may safely run twice.
 */
export class ServeSessionRecords {
  readonly #store: SqlStore;
  readonly #project: string;
  readonly #now: string;

  constructor(options: { store: SqlStore; project: string }) {
    this.#store = options.store;
    this.#project = options.project;
    this.#now = options.store.expressions.nowMs;
  }

  async save(record: ServeSessionRecord): Promise<void> {
    await this.#store.transaction((tx) =>
      tx.run(
        `INSERT INTO quiver_serve_sessions (project, id, quiver_session_id, initialize, revealed_tools, last_seen)
         VALUES (?, ?, ?, ?, ?, ${this.#now})
         ON CONFLICT (project, id) DO UPDATE SET quiver_session_id = excluded.quiver_session_id,
           initialize = excluded.initialize, revealed_tools = excluded.revealed_tools,
           last_seen = excluded.last_seen`,
        [
          this.#project,
          record.id,
          record.quiverSessionId,
          JSON.stringify(record.initialize),
          JSON.stringify(record.revealedTools),
        ],
      ),
    );
  }

  /**
   * The record of a session seen within `idleMs`, marked seen now; undefined when it was deleted
   * or has been idle longer (then it is gone for every replica).
   */
  async touch(id: string, idleMs: number): Promise<ServeSessionRecord | undefined> {
    const row = await this.#store.transaction((tx) =>
      tx.get<RecordRow>(
        `UPDATE quiver_serve_sessions SET last_seen = ${this.#now}
         WHERE project = ? AND id = ? AND last_seen > ${this.#now} - ?
         RETURNING quiver_session_id, initialize, revealed_tools`,
        [this.#project, id, Math.round(idleMs)],
      ),
    );
    if (!row) return undefined;
    return {
      id,
      quiverSessionId: row.quiver_session_id,
      initialize: JSON.parse(row.initialize) as Record<string, unknown>,
      revealedTools: JSON.parse(row.revealed_tools) as string[],
    };
  }

  /** Adds names to the revealed tools, keeping the order in which they were first found. */
  async reveal(id: string, names: readonly string[]): Promise<void> {
    await this.#store.transaction(
      async (tx) => {
        const row = await tx.get<{ revealed_tools: string }>(
          'SELECT revealed_tools FROM quiver_serve_sessions WHERE project = ? AND id = ?',
          [this.#project, id],
        );
        if (row === undefined) return;
        const revealed = [...new Set([...(JSON.parse(row.revealed_tools) as string[]), ...names])];
        await tx.run('UPDATE quiver_serve_sessions SET revealed_tools = ? WHERE project = ? AND id = ?', [
          JSON.stringify(revealed),
          this.#project,
          id,
        ]);
      },
      { isolation: 'serializable' },
    );
  }

  async delete(id: string): Promise<void> {
    await this.#store.transaction((tx) =>
      tx.run('DELETE FROM quiver_serve_sessions WHERE project = ? AND id = ?', [this.#project, id]),
    );
  }

  /** Deletes the sessions no replica has seen within `idleMs`; returns how many. */
  async deleteIdle(idleMs: number): Promise<number> {
    const { changes } = await this.#store.transaction((tx) =>
      tx.run(`DELETE FROM quiver_serve_sessions WHERE project = ? AND last_seen <= ${this.#now} - ?`, [
        this.#project,
        Math.round(idleMs),
      ]),
    );
    return changes;
  }
}
