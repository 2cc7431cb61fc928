import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QuiverEvent, SqlStatement, ToolErrorCode } from '@quiver/types';
import { QuiverError, TRANSIENT_EVENT_TYPES } from '@quiver/types';
import type { SessionEventLog, WriteBehindChannel, WriteBehindFailure } from '../contracts.js';
import type { SqliteBackend, SqliteConnection } from '../storage/sqlite-backend.js';
import { BackgroundLogWriter } from './background-log-writer.js';
import { eventRowStatements } from './event-rows.js';
import { summarizeFileEdits } from './file-edits.js';
import type {
  CallRecord,
  CallStatus,
  FileEditMetrics,
  SessionRecordInput,
  SessionSummary,
} from './records.js';
import { SESSION_LOG_MIGRATIONS } from './schema.js';
import { LOG_BUSY_PATIENCE_MS } from './session-log-writer.js';

/** The longest a read waits for the writer thread to commit what it was handed; then it reads what is there. */
const READ_PATIENCE_MS = 1_000;

export interface SqliteSessionEventLogOptions {
  /** The log lives at `<dataDir>/sessions.db`. */
  dataDir: string;
  /**
   * The SQLite driver (`sqliteBackend` of `@quiver/storage-sqlite`; `@quiver/wiring` passes it).
   * Without it the log cannot be opened: sessions run and are told so once.
   */
  sqlite?: SqliteBackend;
}

interface CallRow {
  session_id: string;
  call_id: string;
  tool: string;
  args: string | null;
  turn: number | null;
  started_at: number | null;
  completed_at: number | null;
  status: CallStatus;
  code: string | null;
  duration_ms: number | null;
  structured: string | null;
}

interface SessionRow {
  id: string;
  personality: string | null;
  agent: string | null;
  started_at: number;
  ended_at: number | null;
  calls: number;
  failed: number;
  interrupted: number;
  last_activity: number | null;
  lost: number;
  result_tokens: number;
  definition_tokens: number | null;
}

/**
 * The durable record of sessions: SQLite in WAL mode. Sessions write through `openWriteBehind`:
 * a writer thread with its own connection commits their events, so no commit runs on the thread
 * that runs the calls; reads through this object wait for what was handed over. `append` and
 * `appendAll` write on the calling thread, in one transaction.
 * Transient events are not stored, except that a call's start becomes a `running` calls row, so
 * a process that dies mid-call leaves evidence a resumed session can recover.
 */
export class SqliteSessionEventLog implements SessionEventLog {
  readonly path: string;
  readonly #opened: SqliteConnection | undefined;
  readonly #sqlite: SqliteBackend | undefined;
  /** Why the log could not be opened (damaged, emptied, unwritable): every use fails with it. */
  readonly #unusable: Error | undefined;
  readonly #appendEvents: (events: readonly QuiverEvent[]) => void;
  readonly #statements = new Map<string, SqlStatement>();
  #behind: BackgroundLogWriter | undefined;

  /**
   * A log that cannot be opened does not stop the host: sessions run, each says once that the
   * log cannot record (naming the file and the fix), and `quiver log` fails with that error.
   */
  constructor(options: SqliteSessionEventLogOptions) {
    this.path = join(options.dataDir, 'sessions.db');
    const sqlite = options.sqlite;
    this.#sqlite = sqlite;
    let opened: SqliteConnection | undefined;
    try {
      if (sqlite === undefined) throw noBackend(this.path);
      opened = sqlite.withStoreFaults(this.path, 'opening the session log', () => {
        mkdirSync(options.dataDir, { recursive: true });
        sqlite.assertStoreNotEmptied(this.path);
        const db = sqlite.openConnection(this.path);
        try {
          db.pragma('journal_mode = WAL');
          // Every lifecycle event is a commit; in WAL mode NORMAL survives a killed process (what orphan
          // recovery needs) without an fsync per event, which stalls tool calls on a busy disk.
          db.pragma('synchronous = NORMAL');
          // SQLite's busy handler sleeps on the event loop; a locked log answers at once instead and
          // the session's writer retries on a timer (SessionLogWriter).
          db.pragma('busy_timeout = 0');
          migrate(db, sqlite);
        } catch (error) {
          db.close();
          throw error;
        }
        return db;
      });
      try {
        sqlite.recordStore(this.path);
      } catch {
        // Recorded at the next open (a full disk, say).
      }
    } catch (error) {
      this.#unusable = asQuiverError(error, this.path);
    }
    this.#opened = opened;
    if (opened === undefined || sqlite === undefined) {
      this.#appendEvents = () => {
        throw this.#unusable;
      };
      return;
    }
    const appendEvents = opened.transaction((events: readonly QuiverEvent[]) => {
      for (const [sql, params] of eventRowStatements(events, null, TRANSIENT_EVENT_TYPES))
        this.#prepare(sql).run(...params);
    });
    this.#appendEvents = (events) =>
      sqlite.withStoreFaults(this.path, 'writing to the session log', () => appendEvents.immediate(events));
  }

  /** The open connection; the reason it could not be opened otherwise. */
  get #db(): SqliteConnection {
    if (this.#opened === undefined) throw this.#unusable;
    return this.#opened;
  }

  /** Why the log cannot be used, or undefined when it is open. */
  get unusable(): Error | undefined {
    return this.#unusable;
  }

  beginSession(session: SessionRecordInput): void {
    this.#prepare(
      `INSERT INTO sessions (id, personality, agent, started_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET personality = coalesce(excluded.personality, personality),
           agent = coalesce(excluded.agent, agent), ended_at = NULL`,
    ).run(session.id, session.personalityId ?? null, session.agent ?? null, session.startedAt ?? Date.now());
  }

  endSession(sessionId: string, endedAt: number = Date.now()): void {
    this.#prepare('UPDATE sessions SET ended_at = ? WHERE id = ?').run(endedAt, sessionId);
  }

  append(event: QuiverEvent): void {
    this.#appendEvents([event]);
  }

  /** Writes the events in one transaction: all of them or, on an error, none. */
  appendAll(events: readonly QuiverEvent[]): void {
    if (events.length > 0) this.#appendEvents(events);
  }

  /**
   * A session's channel to the writer thread (started on the first write): writes are handed
   * over and committed there, all or none each, in the order they were handed over.
   */
  openWriteBehind(onFailure: WriteBehindFailure): WriteBehindChannel {
    if (!this.#db.open) throw new Error('The session log is closed.');
    this.#behind ??= new BackgroundLogWriter({
      path: this.path,
      patienceMs: LOG_BUSY_PATIENCE_MS,
      sqlite: this.#sqlite as SqliteBackend,
    });
    return this.#behind.open(onFailure);
  }

  recoverOrphans(sessionId: string): string[] {
    const recover = this.#db.transaction(() => {
      const rows = this.#prepare(
        `SELECT call_id FROM calls WHERE session_id = ? AND status = 'running' ORDER BY started_at, call_id`,
      ).all(sessionId) as { call_id: string }[];
      this.#prepare(
        `UPDATE calls SET status = 'interrupted', code = 'interrupted', completed_at = ?
           WHERE session_id = ? AND status = 'running'`,
      ).run(Date.now(), sessionId);
      return rows.map((row) => row.call_id);
    });
    // Immediate: a deferred read-then-write cannot take the write lock once another process wrote.
    return recover.immediate();
  }

  /** Most recently active sessions first. */
  recentSessions(limit = 20): SessionSummary[] {
    this.#readAfterWrites();
    const rows = this.#prepare(
      `SELECT s.id, s.personality, s.agent, s.started_at, s.ended_at,
           count(c.call_id) AS calls,
           coalesce(sum(c.status = 'error'), 0) AS failed,
           coalesce(sum(c.status = 'interrupted'), 0) AS interrupted,
           max(coalesce(c.completed_at, c.started_at)) AS last_activity,
           (SELECT coalesce(sum(json_extract(e.data, '$.lostEvents')), 0) FROM events e
              WHERE e.session_id = s.id AND e.type = 'session.warning'
                AND json_extract(e.data, '$.code') = 'log_gap') AS lost,
           (SELECT coalesce(sum(json_extract(e.data, '$.resultTokens')), 0) FROM events e
              WHERE e.session_id = s.id AND e.type = 'tool.execution_complete') AS result_tokens,
           (SELECT json_extract(e.data, '$.definitionTokens') FROM events e
              WHERE e.session_id = s.id AND e.type = 'session.tools_updated'
              ORDER BY e.seq DESC LIMIT 1) AS definition_tokens
         FROM sessions s LEFT JOIN calls c ON c.session_id = s.id
         GROUP BY s.id
         ORDER BY max(coalesce(last_activity, s.started_at), s.started_at) DESC, s.rowid DESC
         LIMIT ?`,
    ).all(limit) as SessionRow[];
    return rows.map((row) => ({
      id: row.id,
      personalityId: row.personality ?? undefined,
      agent: row.agent ?? undefined,
      startedAt: row.started_at,
      endedAt: row.ended_at ?? undefined,
      calls: row.calls,
      failedCalls: row.failed,
      interruptedCalls: row.interrupted,
      lastActivityAt: Math.max(row.last_activity ?? row.started_at, row.started_at),
      lostEvents: row.lost,
      resultTokens: row.result_tokens,
      definitionTokens: row.definition_tokens ?? undefined,
    }));
  }

  /** A session's calls by start time; calls refused before starting sit at their completion time. */
  sessionCalls(sessionId: string): CallRecord[] {
    this.#readAfterWrites();
    const rows = this.#prepare(
      'SELECT * FROM calls WHERE session_id = ? ORDER BY coalesce(started_at, completed_at), rowid',
    ).all(sessionId) as CallRow[];
    return rows.map(toCallRecord);
  }

  /** A session's durable events in publication order. */
  sessionEvents(sessionId: string): QuiverEvent[] {
    this.#readAfterWrites();
    const rows = this.#prepare('SELECT data FROM events WHERE session_id = ? ORDER BY seq').all(
      sessionId,
    ) as {
      data: string;
    }[];
    return rows.map((row) => JSON.parse(row.data) as QuiverEvent);
  }

  /** Files changed and lines added/removed by successful edit calls, for one session or all. */
  fileEditMetrics(sessionId?: string): FileEditMetrics {
    this.#readAfterWrites();
    const rows = (
      sessionId === undefined
        ? this.#prepare(
            `SELECT structured FROM calls WHERE status = 'ok' AND structured IS NOT NULL ORDER BY rowid`,
          ).all()
        : this.#prepare(
            `SELECT structured FROM calls WHERE session_id = ? AND status = 'ok' AND structured IS NOT NULL ORDER BY rowid`,
          ).all(sessionId)
    ) as { structured: string }[];
    return summarizeFileEdits(rows.map((row) => JSON.parse(row.structured) as unknown));
  }

  /** Closes the log; writes already handed to the writer thread are still committed. */
  close(): void {
    this.#behind?.close();
    if (this.#opened?.open) this.#opened.close();
  }

  /**
   * Reads through this object see what this process's sessions handed over before: the read
   * waits (briefly, blocking) for the writer thread. Other connections see it once committed.
   */
  #readAfterWrites(): void {
    this.#behind?.settleAll(READ_PATIENCE_MS);
  }

  /** Statements are compiled once; appends happen for every lifecycle event. */
  #prepare(sql: string): SqlStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

function noBackend(path: string): QuiverError {
  return new QuiverError(
    'storage_unavailable',
    `The session log ${path} cannot be opened: no SQLite backend was given.`,
    {
      fix: 'Pass `sqlite: sqliteBackend` from @quiver/storage-sqlite (createQuiver of @quiver/wiring does); calls run meanwhile without a log.',
    },
  );
}

function asQuiverError(error: unknown, path: string): Error {
  if (error instanceof QuiverError) return error;
  return new QuiverError(
    'storage_unavailable',
    `The session log ${path} could not be opened: ${error instanceof Error ? error.message : String(error)}`,
    {
      fix: 'Check the data directory (permissions, space); calls run meanwhile without a log.',
      cause: error,
    },
  );
}

/** The shared migration runner, after refusing a log newer than this code with the log's own error. */
function migrate(db: SqliteConnection, sqlite: SqliteBackend): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SESSION_LOG_MIGRATIONS.sqlite.length) {
    throw new QuiverError(
      'config_invalid',
      `Session log ${db.name} has schema version ${version}, newer than this Quiver supports.`,
      {
        fix: 'Upgrade @quiver/runtime, or point the data directory somewhere else.',
        details: { path: db.name, version, supported: SESSION_LOG_MIGRATIONS.sqlite.length },
      },
    );
  }
  sqlite.applyMigrations(db, SESSION_LOG_MIGRATIONS.sqlite);
}

function toCallRecord(row: CallRow): CallRecord {
  return {
    sessionId: row.session_id,
    callId: row.call_id,
    toolName: row.tool,
    args: row.args === null ? undefined : (JSON.parse(row.args) as unknown),
    turn: row.turn ?? undefined,
    startedAt: row.started_at ?? undefined,
    completedAt: row.completed_at ?? undefined,
    status: row.status,
    code: (row.code ?? undefined) as ToolErrorCode | undefined,
    durationMs: row.duration_ms ?? undefined,
    structured: row.structured === null ? undefined : (JSON.parse(row.structured) as unknown),
  };
}
