import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QuiverEvent, SqlStatement, SqlStore } from '@quiver/types';
import { errorMessage, QuiverError, TRANSIENT_EVENT_TYPES } from '@quiver/types';
import type { WriteBehindChannel, WriteBehindFailure } from '../contracts.js';
import type { SqliteBackend, SqliteConnection } from '../storage/sqlite-backend.js';
import { BackgroundLogWriter } from './background-log-writer.js';
import { type EventRowStatement, eventRowStatements } from './event-rows.js';
import { LOG_WAL_CHECKPOINT_PAGES } from './log-writer-thread.js';
import type { SessionRecordInput } from './records.js';
import { SESSION_LOG_MIGRATIONS } from './schema.js';
import { LOG_BUSY_PATIENCE_MS } from './session-log-writer.js';
import {
  inStartOrder,
  orphanRecoveryStatement,
  type RecoveredCallRow,
  sessionEndStatement,
  sessionStartStatement,
} from './session-statements.js';
import { type LogReplica, SharedSessionEventLog } from './shared-session-event-log.js';

/** The longest a read waits for the writer thread to commit what it was handed; then it reads what is there. */
const READ_PATIENCE_MS = 1_000;

export interface SqliteSessionEventLogOptions {
  /** The log lives at `<dataDir>/sessions.db`. */
  dataDir: string;
  /**
   * Where sessions' events are committed: `thread` (default), a writer thread of the log's own,
   * so that no commit runs on the thread that runs the calls; `calling-thread`, each write
   * committed where it is made, for a process that runs one call and ends (`quiver call`),
   * which a second thread would only slow down.
   */
  writer?: 'thread' | 'calling-thread';
  /**
   * The SQLite driver (`sqliteBackend` of `@quiver/storage-sqlite`; `@quiver/wiring` passes it).
   * Without it the log cannot be opened: sessions run and are told so once.
   */
  sqlite?: SqliteBackend;
}

/** Every process on one host writes the same file: any other process's running call is an orphan once its session resumes. */
const SINGLE_HOST: LogReplica = {
  id: 'this-process',
  deadCondition: () => ({ sql: '1 = 1', params: [] }),
};

/** What the constructor opened, before `super` can be called. */
interface OpenedLog {
  path: string;
  connection: SqliteConnection | undefined;
  store: SqlStore;
  unusable: Error | undefined;
}

/**
 * The durable record of sessions of a single host: the session log over `SqlStore`
 * (`SharedSessionEventLog`: its rows, reads and recovery are written once for both backends)
 * in a SQLite file in WAL mode, plus the synchronous path only SQLite offers. Sessions write
 * through `openWriteBehind`: a writer thread with its own connection commits their events (the
 * same row statements), so no commit runs on the thread that runs the calls; reads through this
 * object wait for what was handed over. `append`, `appendAll`, `beginSession`, `endSession` and
 * `recoverOrphans` write on the calling thread, each in one transaction, and a locked log fails
 * them at once (the session's writer retries on a timer).
 * Transient events are not stored, except that a call's start becomes a `running` calls row, so
 * a process that dies mid-call leaves evidence a resumed session can recover.
 */
export class SqliteSessionEventLog extends SharedSessionEventLog {
  readonly path: string;
  readonly #opened: SqliteConnection | undefined;
  readonly #sqlite: SqliteBackend | undefined;
  /** Why the log could not be opened (damaged, emptied, unwritable): every use fails with it. */
  readonly #unusable: Error | undefined;
  readonly #appendEvents: (events: readonly QuiverEvent[]) => void;
  readonly #statements = new Map<string, SqlStatement>();
  #behind: BackgroundLogWriter | undefined;
  readonly #writesBehind: boolean;

  /**
   * A log that cannot be opened does not stop the host: sessions run, each says once that the
   * log cannot record (naming the file and the fix), and `quiver log` fails with that error.
   */
  constructor(options: SqliteSessionEventLogOptions) {
    const opened = openLog(options);
    super({ store: opened.store, replica: SINGLE_HOST });
    this.path = opened.path;
    this.#sqlite = options.sqlite;
    this.#opened = opened.connection;
    this.#unusable = opened.unusable;
    this.#writesBehind = options.writer !== 'calling-thread';
    const sqlite = options.sqlite;
    if (opened.connection === undefined || sqlite === undefined) {
      this.#appendEvents = () => {
        throw this.#unusable;
      };
      return;
    }
    const appendEvents = opened.connection.transaction((events: readonly QuiverEvent[]) =>
      this.#runAll(eventRowStatements(events, null, TRANSIENT_EVENT_TYPES)),
    );
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

  override beginSession(session: SessionRecordInput): void {
    this.#runAll([sessionStartStatement(session)]);
  }

  override endSession(sessionId: string, endedAt: number = Date.now()): void {
    this.#runAll([sessionEndStatement(sessionId, endedAt)]);
  }

  override append(event: QuiverEvent): void {
    this.#appendEvents([event]);
  }

  /** Writes the events in one transaction: all of them or, on an error, none. */
  override appendAll(events: readonly QuiverEvent[]): void {
    if (events.length > 0) this.#appendEvents(events);
  }

  /**
   * A session's channel to the writer thread (started on the first write): writes are handed
   * over and committed there, all or none each, in the order they were handed over.
   */
  override openWriteBehind(onFailure: WriteBehindFailure): WriteBehindChannel | undefined {
    if (!this.#db.open) throw new Error('The session log is closed.');
    if (!this.#writesBehind) return undefined;
    this.#behind ??= new BackgroundLogWriter({
      path: this.path,
      patienceMs: LOG_BUSY_PATIENCE_MS,
      sqlite: this.#sqlite as SqliteBackend,
    });
    return this.#behind.open(onFailure);
  }

  /** Synchronous: one statement, so it takes the write lock at once or fails busy at once. */
  override recoverOrphans(sessionId: string): string[] {
    const [sql, params] = orphanRecoveryStatement(sessionId, SINGLE_HOST.id, SINGLE_HOST.deadCondition(''));
    const rows = this.#prepare(sql).all(...params) as RecoveredCallRow[];
    return inStartOrder(rows).map((row) => row.call_id);
  }

  /** Resolves once the writer thread has committed what it was handed (or a second has passed). */
  override async flushed(): Promise<void> {
    await this.whenWritten();
  }

  /** Closes the log; writes already handed to the writer thread are still committed. */
  override close(): void {
    this.#behind?.close();
    if (this.#opened?.open) this.#opened.close();
  }

  /**
   * Reads through this object see what this process's sessions handed over before: the read
   * waits (briefly, blocking) for the writer thread. Other connections see it once committed.
   */
  protected override async whenWritten(): Promise<void> {
    this.#behind?.settleAll(READ_PATIENCE_MS);
  }

  #runAll(statements: readonly EventRowStatement[]): void {
    for (const [sql, params] of statements) this.#prepare(sql).run(...params);
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

/** Opens `<dataDir>/sessions.db` and its `SqlStore`; a log that cannot be opened is a store that fails with why. */
function openLog(options: SqliteSessionEventLogOptions): OpenedLog {
  const path = join(options.dataDir, 'sessions.db');
  const sqlite = options.sqlite;
  try {
    if (sqlite === undefined) throw noBackend(path);
    const connection = sqlite.withStoreFaults(path, 'opening the session log', () => {
      mkdirSync(options.dataDir, { recursive: true });
      sqlite.assertStoreNotEmptied(path);
      const db = sqlite.openConnection(path);
      try {
        db.pragma('journal_mode = WAL');
        // Every lifecycle event is a commit; in WAL mode NORMAL survives a killed process (what orphan
        // recovery needs) without an fsync per event, which stalls tool calls on a busy disk.
        db.pragma('synchronous = NORMAL');
        // As the writer thread's connection does: a commit here must not find the log past the
        // default 1,000 pages and checkpoint on the thread that runs the calls.
        db.pragma(`wal_autocheckpoint = ${LOG_WAL_CHECKPOINT_PAGES}`);
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
      sqlite.recordStore(path);
    } catch {
      // Recorded at the next open (a full disk, say).
    }
    return {
      path,
      connection,
      store: sqlite.createSqlStore('session-log', () => connection),
      unusable: undefined,
    };
  } catch (error) {
    const unusable = asQuiverError(error, path);
    return { path, connection: undefined, store: failingStore(unusable), unusable };
  }
}

/** The store of a log that could not be opened: every use fails with why. */
function failingStore(error: Error): SqlStore {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return {
    name: 'session-log',
    dialect: 'sqlite',
    expressions: { nowMs: '0', jsonField: () => 'NULL' },
    all: fail,
    get: fail,
    run: fail,
    transaction: fail,
  };
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
    `The session log ${path} could not be opened: ${errorMessage(error)}`,
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
