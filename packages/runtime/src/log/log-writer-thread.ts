import type { SqlStatement } from '@quiver/types';
import type { SqliteConnection } from '../storage/sqlite-backend.js';
import type { eventRowStatements } from './event-rows.js';

/** The driver module's export: a connection constructor (better-sqlite3's `Database`). */
type SqliteDriverModule = new (path: string, options: { fileMustExist: boolean }) => SqliteConnection;

/**
 * The write-ahead log's size, in pages, past which a commit copies it into the database
 * (SQLite's default is 1,000). Every connection to the session log sets it: a checkpoint copies
 * each page once however often it changed since the last, so a gateway writing a few rows a
 * call spends ~15 µs a call less of its writer thread on them; the `-wal` file grows to ~40 MB
 * before it is reset, and the last connection to close checkpoints what is left.
 */
export const LOG_WAL_CHECKPOINT_PAGES = 10_000;

/** What the writer thread is started with. */
export interface LogWriterThreadData {
  /** `<dataDir>/sessions.db`, already migrated by the log's own connection. */
  path: string;
  /** Where the SQLite driver lives, given by the storage backend (the thread runs from source text). */
  sqliteModule: string;
  transientTypes: readonly string[];
  /** How long a write waits for another process's lock before it fails as busy. */
  patienceMs: number;
  /** Index 0: the id of the last write settled (committed or failed); the thread notifies on it. */
  settled: SharedArrayBuffer;
  /** How long the thread waits without work before it says it is idle. */
  idleMs: number;
  /** `PRAGMA wal_autocheckpoint` of its connection: LOG_WAL_CHECKPOINT_PAGES. */
  walCheckpointPages: number;
}

/**
 * One flush of a session (its channel): the events as one JSON array, each event's text as
 * `JSON.stringify` wrote it, so the thread stores those texts as they are instead of serialising
 * what it parsed again.
 */
export interface LogWriteRequest {
  id: number;
  channel: number;
  events: string;
  /** Where each event's text ends in `events` (it starts after the `[` or the `,` before it). */
  ends: number[];
}

/** The writes handed over together, in order: one message, to wake the thread once. */
export interface LogWriteBatch {
  writes: LogWriteRequest[];
}

/** Sent once, after the last write; the thread finishes what it holds and ends. */
export interface LogCloseRequest {
  close: true;
}

/** What the thread tells the log: a failed transaction, or that it has had nothing to do for a while. */
export type LogThreadReport =
  | {
      failed: {
        channels: number[];
        /** Per channel (same order): the events its failed writes held, gap records left out. */
        lost: number[];
        code?: string;
        message: string;
        busy: boolean;
        firstOfStretch: boolean;
      };
    }
  | { idle: number };

/**
 * The body of the session log's writer thread: it owns a second connection to the log and
 * writes what the sessions hand it, so that SQLite's commits never run on the thread that runs
 * the calls. Writes that arrive while one is under way are written together, in one transaction.
 * A write waits up to `patienceMs` for another process's lock (blocking this thread only); after
 * one has given up, writes fail at once until the log is free again. Progress is published in
 * shared memory (no message per write); only failures and idleness are messages.
 *
 * Its source text is what the thread runs, so it refers to nothing outside itself; the log's row
 * code (`eventRowStatements`, the same the shared log runs through `SqlStore`) is handed in the
 * same way.
 */
export function logWriterThread(rowStatements: typeof eventRowStatements): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as LogWriterThreadData;
  const settled = new Int32Array(data.settled);
  const SqliteDatabase = require(data.sqliteModule) as SqliteDriverModule;
  const { statSync } = require('node:fs') as typeof import('node:fs');
  // Never creates the file: one deleted before this thread started is a failure, not a new log.
  // An error leaving this thread must be a plain Error to keep its message across.
  const opened = (): {
    db: SqliteConnection;
    inode: number;
    writeRows: (events: readonly never[], texts: readonly string[]) => void;
  } => {
    try {
      const db = new SqliteDatabase(data.path, { fileMustExist: true });
      db.pragma('synchronous = NORMAL');
      db.pragma(`wal_autocheckpoint = ${data.walCheckpointPages}`);
      db.pragma(`busy_timeout = ${data.patienceMs}`);
      // Which file this connection writes: see fileGone.
      const inode = statSync(data.path).ino;
      const statements = new Map<string, SqlStatement>();
      const transientTypes = new Set(data.transientTypes);
      const writeRows = (events: readonly never[], texts: readonly string[]): void => {
        for (const [sql, params] of rowStatements(events, null, transientTypes, texts)) {
          let statement = statements.get(sql);
          if (statement === undefined) {
            statement = db.prepare(sql);
            statements.set(sql, statement);
          }
          statement.run(...params);
        }
      };
      return { db, inode, writeRows };
    } catch (error) {
      throw Object.assign(
        new Error(
          `The session log ${data.path} could not be opened by its writer thread (was it deleted or replaced?): ${(error as Error).message}`,
        ),
        { code: 'QUIVER_LOG_GONE' },
      );
    }
  };
  const { db, inode, writeRows } = opened();
  // A log deleted or replaced under this connection would take every later write silently
  // (SQLite keeps writing to the unlinked file), so each transaction checks first.
  const fileGone = (): Error | undefined => {
    let current: number | undefined;
    try {
      current = statSync(data.path).ino;
    } catch {
      current = undefined;
    }
    if (current === inode) return undefined;
    return Object.assign(
      new Error(
        `The session log ${data.path} was deleted or replaced while Quiver was writing to it; what it is handed now cannot be recorded until Quiver restarts.`,
      ),
      { code: 'QUIVER_LOG_GONE' },
    );
  };
  const write = db.transaction((events: readonly unknown[], texts: readonly string[]) => {
    writeRows(events as never, texts);
  });
  // The writes of a transaction go through the row code together (a call whose start and
  // completion were handed over in different writes becomes one row, as within a write), each
  // event stored as the text it came in; parsed before the transaction takes the log's lock.
  const decode = (requests: readonly LogWriteRequest[]): [events: unknown[], texts: string[]] => {
    const events: unknown[] = [];
    const texts: string[] = [];
    for (const request of requests) {
      for (const event of JSON.parse(request.events) as unknown[]) events.push(event);
      let start = 1;
      for (const end of request.ends) {
        texts.push(request.events.slice(start, end));
        start = end + 1;
      }
    }
    return [events, texts];
  };
  let queue: LogWriteRequest[] = [];
  let scheduled = false;
  let closing = false;
  let gaveUp = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const isBusy = (error: unknown): boolean =>
    /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | undefined)?.code));
  const attempt = (requests: readonly LogWriteRequest[]): unknown => {
    const gone = fileGone();
    if (gone !== undefined) return gone;
    try {
      write.immediate(...decode(requests));
      if (gaveUp) db.pragma(`busy_timeout = ${data.patienceMs}`);
      gaveUp = false;
      return undefined;
    } catch (error) {
      return error;
    }
  };
  const report = (requests: readonly LogWriteRequest[], error: unknown): void => {
    const busy = isBusy(error);
    const firstOfStretch = busy && !gaveUp;
    if (firstOfStretch) {
      gaveUp = true;
      db.pragma('busy_timeout = 0');
    }
    const code = (error as { code?: unknown } | undefined)?.code;
    const lostByChannel = new Map<number, number>();
    for (const request of requests) {
      let lost = 0;
      try {
        for (const event of JSON.parse(request.events) as { type?: string; code?: string }[])
          if (!(event.type === 'session.warning' && event.code === 'log_gap')) lost += 1;
      } catch {
        // Text that does not parse was counted as failed when it was serialised.
      }
      lostByChannel.set(request.channel, (lostByChannel.get(request.channel) ?? 0) + lost);
    }
    const failed = {
      channels: [...lostByChannel.keys()],
      lost: [...lostByChannel.values()],
      message: error instanceof Error ? error.message : String(error),
      busy,
      firstOfStretch,
      ...(typeof code === 'string' ? { code } : {}),
    };
    parentPort?.postMessage({ failed } satisfies LogThreadReport);
  };
  const drain = (): void => {
    scheduled = false;
    const requests = queue;
    queue = [];
    const last = requests[requests.length - 1];
    if (last !== undefined) {
      const error = attempt(requests);
      if (error !== undefined) {
        const whole = isBusy(error) || (error as { code?: unknown }).code === 'QUIVER_LOG_GONE';
        if (whole || requests.length === 1) report(requests, error);
        // One bad write must not take the others of its transaction down with it.
        else
          for (const request of requests) {
            const alone = attempt([request]);
            if (alone !== undefined) report([request], alone);
          }
      }
      // Failures are reported before the progress they are part of, so a waiter sees both.
      Atomics.store(settled, 0, last.id);
      Atomics.notify(settled, 0);
    }
    if (closing && queue.length === 0) {
      db.close();
      parentPort?.close();
      return;
    }
    const idleAt = Atomics.load(settled, 0);
    idleTimer = setTimeout(
      () => parentPort?.postMessage({ idle: idleAt } satisfies LogThreadReport),
      data.idleMs,
    );
  };
  parentPort?.on('message', (message: LogWriteBatch | LogCloseRequest) => {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
    if ('close' in message) closing = true;
    else for (const write of message.writes) queue.push(write);
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  });
}
