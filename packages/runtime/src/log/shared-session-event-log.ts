import {
  isQuiverError,
  type QuiverEvent,
  type SqlParameter,
  type SqlQueryable,
  type SqlStore,
  type ToolErrorCode,
  TRANSIENT_EVENT_TYPES,
} from '@quiver/types';
import type { SessionEventLog, WriteBehindChannel, WriteBehindFailure } from '../contracts.js';
import { eventRowStatements } from './event-rows.js';
import { summarizeFileEdits } from './file-edits.js';
import type {
  CallRecord,
  CallStatus,
  FileEditMetrics,
  SessionRecordInput,
  SessionSummary,
} from './records.js';
import {
  inStartOrder,
  orphanRecoveryStatement,
  type RecoveredCallRow,
  sessionEndStatement,
  sessionStartStatement,
} from './session-statements.js';

/** This process among the replicas sharing the store (the storage backend's lease). */
export interface LogReplica {
  readonly id: string;
  /** A condition true when the replica whose id is in `column` stopped or let its lease run out; `params` fill its `?`. */
  deadCondition(column: string): { sql: string; params: SqlParameter[] };
}

export interface SharedSessionEventLogOptions {
  /** A store migrated with `SESSION_LOG_MIGRATIONS` (concern `session-log`); the caller owns it. */
  store: SqlStore;
  /** This process's replica: running calls are stamped with it. */
  replica: LogReplica;
  /** What is held in memory while the database is unreachable; default `SHARED_LOG_QUEUE_LIMITS`. */
  queueLimits?: { events: number; bytes: number };
}

/** A call another replica left running when it died, now marked interrupted. */
export interface RecoveredCall {
  sessionId: string;
  callId: string;
  toolName: string;
  replica: string;
}

interface SessionRow {
  id: string;
  personality: string | null;
  agent: string | null;
  caller: string | null;
  started_at: number;
  ended_at: number | null;
  calls: number;
  failed: number;
  interrupted: number;
  last_activity: number | null;
  lost: number | null;
  result_tokens: number | string | null;
  definition_tokens: number | string | null;
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

/** Writes held in memory while the database is unreachable, at most: past either bound they are counted as lost. */
export const SHARED_LOG_QUEUE_LIMITS = { events: 10_000, bytes: 16 * 1024 * 1024 };
/** How long one write keeps being retried while the database is unreachable before it is counted as lost. */
const OUTAGE_PATIENCE_MS = 120_000;
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 2_000;

const number = (value: number | string | null): number | undefined =>
  value === null ? undefined : Number(value);

/**
 * The session log in a store every replica shares (written against `SqlStore`; PostgreSQL in
 * practice). Writes are queued and committed in the order they were handed over, each batch in
 * one transaction, off the calling path (the queue plays the part of the SQLite log's writer
 * thread). A call's start is stamped with the
 * replica that runs it; orphan recovery marks `interrupted` only the running calls of replicas
 * whose lease ran out or that stopped, so a live replica's call is never taken for an orphan and
 * nothing is ever re-run.
 */
export class SharedSessionEventLog implements SessionEventLog {
  readonly #store: SqlStore;
  readonly #replica: LogReplica;
  #queue: Promise<void> = Promise.resolve();
  #handedOver = 0;
  #settled = 0;
  readonly #failures = new Set<WriteBehindFailure>();
  /** Events (and their approximate bytes) waiting in the queue while the database is unreachable. */
  #queuedEvents = 0;
  #queuedBytes = 0;
  #unreachableSince: number | undefined;
  readonly #limits: { events: number; bytes: number };

  constructor(options: SharedSessionEventLogOptions) {
    this.#store = options.store;
    this.#replica = options.replica;
    this.#limits = options.queueLimits ?? SHARED_LOG_QUEUE_LIMITS;
  }

  beginSession(session: SessionRecordInput): void {
    const [sql, params] = sessionStartStatement(session);
    this.#enqueue([], (tx) => tx.run(sql, params));
  }

  endSession(sessionId: string, endedAt: number = Date.now()): void {
    const [sql, params] = sessionEndStatement(sessionId, endedAt);
    this.#enqueue([], (tx) => tx.run(sql, params));
  }

  append(event: QuiverEvent): void {
    this.appendAll([event]);
  }

  appendAll(events: readonly QuiverEvent[]): void {
    if (events.length > 0) this.#enqueue(events, (tx) => this.#writeRows(tx, events));
  }

  openWriteBehind(onFailure: WriteBehindFailure): WriteBehindChannel | undefined {
    this.#failures.add(onFailure);
    return {
      write: (events) => this.#enqueue(events, (tx) => this.#writeRows(tx, events)),
      written: () => this.#queue,
      // Nothing can block on a network round trip; writes stay in order on the one queue anyway.
      settle: () => this.#settled === this.#handedOver,
      close: () => {
        this.#failures.delete(onFailure);
      },
    };
  }

  /** Marks this session's calls left running by dead replicas interrupted; returns their ids. */
  recoverOrphans(sessionId: string): string[] | Promise<string[]> {
    return this.#recover(sessionId).then((recovered) => recovered.map((call) => call.callId));
  }

  /** Marks every call a dead replica left running interrupted; a live replica calls this to report them. */
  recoverDeadReplicas(): Promise<RecoveredCall[]> {
    return this.#recover(undefined);
  }

  /** Resolves once every write handed over so far is committed or has failed. */
  async flushed(): Promise<void> {
    await this.#queue;
  }

  /** What reads wait for: the writes handed over before them. */
  protected async whenWritten(): Promise<void> {
    await this.#queue;
  }

  async sessionCalls(sessionId: string): Promise<CallRecord[]> {
    await this.whenWritten();
    // Calls that started in the same millisecond keep the order they were asked in: that of their first event.
    const rows = await this.#store.all<CallRow>(
      `SELECT c.* FROM calls c
         LEFT JOIN (SELECT call_id, min(seq) AS first_seq FROM events
                      WHERE session_id = ? AND call_id IS NOT NULL GROUP BY call_id) f ON f.call_id = c.call_id
       WHERE c.session_id = ?
       ORDER BY coalesce(c.started_at, c.completed_at), f.first_seq, c.call_id`,
      [sessionId, sessionId],
    );
    return rows.map(toCallRecord);
  }

  async recentSessions(limit = 20): Promise<SessionSummary[]> {
    await this.whenWritten();
    const json = this.#store.expressions.jsonField;
    const rows = await this.#store.all<SessionRow>(
      `SELECT s.id, s.personality, s.agent, s.caller, s.started_at, s.ended_at,
         count(c.call_id) AS calls,
         coalesce(sum(CASE WHEN c.status = 'error' THEN 1 ELSE 0 END), 0) AS failed,
         coalesce(sum(CASE WHEN c.status = 'interrupted' THEN 1 ELSE 0 END), 0) AS interrupted,
         max(coalesce(c.completed_at, c.started_at)) AS last_activity,
         (SELECT coalesce(sum(CAST(${json('e.data', 'lostEvents')} AS INTEGER)), 0) FROM events e
            WHERE e.session_id = s.id AND e.type = 'session.warning'
              AND ${json('e.data', 'code')} = 'log_gap') AS lost,
         (SELECT coalesce(sum(CAST(${json('e.data', 'resultTokens')} AS INTEGER)), 0) FROM events e
            WHERE e.session_id = s.id AND e.type = 'tool.execution_complete') AS result_tokens,
         (SELECT CAST(${json('e.data', 'definitionTokens')} AS INTEGER) FROM events e
            WHERE e.session_id = s.id AND e.type = 'session.tools_updated'
            ORDER BY e.seq DESC LIMIT 1) AS definition_tokens
       FROM sessions s LEFT JOIN calls c ON c.session_id = s.id
       GROUP BY s.id, s.personality, s.agent, s.caller, s.started_at, s.ended_at
       ORDER BY CASE WHEN max(coalesce(c.completed_at, c.started_at)) > s.started_at
                  THEN max(coalesce(c.completed_at, c.started_at)) ELSE s.started_at END DESC
       LIMIT ?`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      personalityId: row.personality ?? undefined,
      agent: row.agent ?? undefined,
      caller: row.caller ?? undefined,
      startedAt: Number(row.started_at),
      endedAt: number(row.ended_at),
      calls: Number(row.calls),
      failedCalls: Number(row.failed),
      interruptedCalls: Number(row.interrupted),
      lastActivityAt: Math.max(Number(row.last_activity ?? row.started_at), Number(row.started_at)),
      lostEvents: Number(row.lost ?? 0),
      resultTokens: Number(row.result_tokens ?? 0),
      definitionTokens: number(row.definition_tokens),
    }));
  }

  /** A session's durable events in publication order. */
  async sessionEvents(sessionId: string): Promise<QuiverEvent[]> {
    await this.whenWritten();
    const rows = await this.#store.all<{ data: string }>(
      'SELECT data FROM events WHERE session_id = ? ORDER BY seq',
      [sessionId],
    );
    return rows.map((row) => JSON.parse(row.data) as QuiverEvent);
  }

  /** Files changed and lines added/removed by successful edit calls, for one session or all. */
  async fileEditMetrics(sessionId?: string): Promise<FileEditMetrics> {
    await this.whenWritten();
    const rows = await this.#store.all<{ structured: string }>(
      `SELECT structured FROM calls
       WHERE status = 'ok' AND structured IS NOT NULL${sessionId === undefined ? '' : ' AND session_id = ?'}
       ORDER BY coalesce(completed_at, started_at), call_id`,
      sessionId === undefined ? [] : [sessionId],
    );
    return summarizeFileEdits(rows.map((row) => JSON.parse(row.structured) as unknown));
  }

  /** Writes already handed over are still committed; the store and the replica belong to the caller. */
  close(): void {}

  /** The log's rows for `events`, in the caller's transaction, stamped with this replica. */
  async #writeRows(tx: SqlQueryable, events: readonly QuiverEvent[]): Promise<void> {
    for (const [sql, params] of eventRowStatements(events, this.#replica.id, TRANSIENT_EVENT_TYPES))
      await tx.run(sql, params);
  }

  /** Running calls of replicas that stopped or whose lease ran out, never this replica's own. */
  async #recover(sessionId: string | undefined): Promise<RecoveredCall[]> {
    const [sql, params] = orphanRecoveryStatement(
      sessionId,
      this.#replica.id,
      this.#replica.deadCondition('calls.replica'),
    );
    const rows = await this.#store.transaction((tx) => tx.all<RecoveredCallRow>(sql, params));
    return inStartOrder(rows).map((row) => ({
      sessionId: row.session_id,
      callId: row.call_id,
      toolName: row.tool,
      replica: row.replica ?? '',
    }));
  }

  /**
   * Queues a write. While the database is unreachable, writes wait in memory (in order) and are
   * retried with backoff until it is back; past `SHARED_LOG_QUEUE_LIMITS`, or after
   * `OUTAGE_PATIENCE_MS` of retrying one write, they are counted as lost and reported.
   */
  #enqueue(events: readonly QuiverEvent[], write: (tx: SqlQueryable) => Promise<unknown>): number {
    const id = ++this.#handedOver;
    let bytes = 0;
    if (this.#unreachableSince !== undefined) {
      bytes = events.reduce((sum, event) => sum + JSON.stringify(event).length, 0);
      const { events: maxEvents, bytes: maxBytes } = this.#limits;
      if (this.#queuedEvents + events.length > maxEvents || this.#queuedBytes + bytes > maxBytes) {
        const error = new Error(
          `PostgreSQL has been unreachable for ${Math.round((Date.now() - this.#unreachableSince) / 1000)} s and ${this.#queuedEvents} events already wait to be written (at most ${maxEvents} events or ${maxBytes / 1024 / 1024} MB are held).`,
        );
        this.#queue = this.#queue.then(() => {
          this.#reportFailure(error, events.length);
          this.#settled = id;
        });
        return id;
      }
    }
    this.#queuedEvents += events.length;
    this.#queuedBytes += bytes;
    this.#queue = this.#queue.then(async () => {
      try {
        await this.#writeWhileReachable(write);
      } catch (error) {
        this.#reportFailure(error as Error, events.length);
      } finally {
        this.#queuedEvents -= events.length;
        this.#queuedBytes -= bytes;
        this.#settled = id;
      }
    });
    return id;
  }

  /**
   * One transaction; while the database is unreachable (the store gave up reconnecting) it is
   * retried with backoff. The rows are upserts, so a COMMIT that did land is harmless.
   */
  async #writeWhileReachable(write: (tx: SqlQueryable) => Promise<unknown>): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    for (;;) {
      try {
        await this.#store.transaction(write);
        this.#unreachableSince = undefined;
        return;
      } catch (error) {
        if (!isQuiverError(error) || error.code !== 'storage_unavailable') throw error;
        this.#unreachableSince ??= Date.now();
        if (Date.now() - this.#unreachableSince > OUTAGE_PATIENCE_MS) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    }
  }

  #reportFailure(error: Error, lostEvents: number): void {
    for (const onFailure of this.#failures) {
      try {
        onFailure(error, false, lostEvents);
      } catch {
        // A broken listener must not stop the writes behind this one.
      }
    }
  }
}

function toCallRecord(row: CallRow): CallRecord {
  return {
    sessionId: row.session_id,
    callId: row.call_id,
    toolName: row.tool,
    args: row.args === null ? undefined : (JSON.parse(row.args) as unknown),
    turn: row.turn ?? undefined,
    startedAt: number(row.started_at),
    completedAt: number(row.completed_at),
    status: row.status,
    code: (row.code ?? undefined) as ToolErrorCode | undefined,
    durationMs: row.duration_ms ?? undefined,
    structured: row.structured === null ? undefined : (JSON.parse(row.structured) as unknown),
  };
}
