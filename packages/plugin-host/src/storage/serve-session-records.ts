import { applyPostgresMigrations, retryIdempotent } from '@quiver/storage-postgres';
import type pg from 'pg';

const MIGRATIONS = [
  `CREATE TABLE quiver_serve_sessions (
     project TEXT NOT NULL,
     id TEXT NOT NULL,
     quiver_session_id TEXT NOT NULL,
     initialize JSONB NOT NULL,
     revealed_tools TEXT[] NOT NULL DEFAULT '{}',
     last_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
     PRIMARY KEY (project, id)
   )`,
];

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

/**
 * The MCP sessions of `quiver serve --http` that every replica sharing the database can answer.
 * Liveness uses the database's clock, so replicas with skewed clocks agree on what is idle.
 */
export class PostgresServeSessionRecords {
  readonly #pool: pg.Pool;
  readonly #project: string;

  private constructor(pool: pg.Pool, project: string) {
    this.#pool = pool;
    this.#project = project;
  }

  static async open(options: { pool: pg.Pool; project: string }): Promise<PostgresServeSessionRecords> {
    await applyPostgresMigrations(options.pool, 'serve-sessions', MIGRATIONS);
    return new PostgresServeSessionRecords(options.pool, options.project);
  }

  async save(record: ServeSessionRecord): Promise<void> {
    await retryIdempotent(() =>
      this.#pool.query(
        `INSERT INTO quiver_serve_sessions (project, id, quiver_session_id, initialize, revealed_tools)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project, id) DO UPDATE SET quiver_session_id = excluded.quiver_session_id,
         initialize = excluded.initialize, revealed_tools = excluded.revealed_tools, last_seen = now()`,
        [
          this.#project,
          record.id,
          record.quiverSessionId,
          JSON.stringify(record.initialize),
          record.revealedTools,
        ],
      ),
    );
  }

  /**
   * The record of a session seen within `idleMs`, marked seen now; undefined when it was deleted
   * or has been idle longer (then it is gone for every replica).
   */
  async touch(id: string, idleMs: number): Promise<ServeSessionRecord | undefined> {
    const result = await retryIdempotent(() =>
      this.#pool.query<{
        quiver_session_id: string;
        initialize: Record<string, unknown>;
        revealed_tools: string[];
      }>(
        `UPDATE quiver_serve_sessions SET last_seen = now()
       WHERE project = $1 AND id = $2 AND last_seen > now() - make_interval(secs => $3)
       RETURNING quiver_session_id, initialize, revealed_tools`,
        [this.#project, id, idleMs / 1_000],
      ),
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      id,
      quiverSessionId: row.quiver_session_id,
      initialize: row.initialize,
      revealedTools: row.revealed_tools,
    };
  }

  /** Adds names to the revealed tools, keeping the order in which they were first found. */
  async reveal(id: string, names: readonly string[]): Promise<void> {
    await retryIdempotent(() =>
      this.#pool.query(
        `UPDATE quiver_serve_sessions SET revealed_tools = ARRAY(
         SELECT name FROM unnest(revealed_tools || $3::text[]) WITH ORDINALITY AS found(name, position)
         GROUP BY name ORDER BY min(position))
       WHERE project = $1 AND id = $2`,
        [this.#project, id, names],
      ),
    );
  }

  async delete(id: string): Promise<void> {
    await retryIdempotent(() =>
      this.#pool.query('DELETE FROM quiver_serve_sessions WHERE project = $1 AND id = $2', [
        this.#project,
        id,
      ]),
    );
  }

  /** Deletes the sessions no replica has seen within `idleMs`; returns how many. */
  async deleteIdle(idleMs: number): Promise<number> {
    const result = await retryIdempotent(() =>
      this.#pool.query(
        `DELETE FROM quiver_serve_sessions
       WHERE project = $1 AND last_seen <= now() - make_interval(secs => $2)`,
        [this.#project, idleMs / 1_000],
      ),
    );
    return result.rowCount ?? 0;
  }
}
