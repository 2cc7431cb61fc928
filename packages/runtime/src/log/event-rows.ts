import type { QuiverEvent, SqlParameter } from '@quiver/types';

/** One statement of the log's rows: portable SQL (`?` placeholders, upserts) and its parameters. */
export type EventRowStatement = readonly [sql: string, params: SqlParameter[]];

/**
 * The statements that turn lifecycle events into the session log's rows, on either backend; the
 * caller runs them in order inside one transaction (the shared log through `SqlStore`, the SQLite
 * log's writer thread and its calling-thread path on their connection).
 *
 * A call's start becomes a `running` calls row stamped with `replica` (null on a single host), so
 * a process that dies mid-call leaves evidence a resumed session can recover; its completion
 * fills the row in, or, when it is in the same write, is written with it as one row at the
 * start's place. Every event whose type is not in `transientTypes` is kept whole.
 *
 * Its source text is also the row code of the SQLite log's writer thread, so it refers to
 * nothing outside itself. `texts`, when given, holds each event's JSON text (what the `data`
 * column stores), so a caller that already serialised the events does not serialise them again.
 */
export function eventRowStatements(
  events: readonly QuiverEvent[],
  replica: string | null,
  transientTypes: ReadonlySet<string> | Iterable<string>,
  texts?: readonly string[],
): EventRowStatement[] {
  type Completion = Extract<QuiverEvent, { type: 'tool.execution_complete' }>;
  const transient = transientTypes instanceof Set ? transientTypes : new Set(transientTypes);
  const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
  const statusOf = (event: Completion): string =>
    event.success ? 'ok' : event.result.code === 'interrupted' ? 'interrupted' : 'error';
  const keyOf = (event: { sessionId: string; callId: string }): string =>
    `${event.sessionId}\u0000${event.callId}`;
  const statements: EventRowStatement[] = [];

  // Where each call's completions are in this write, so that a start can take the one after it.
  const completions = new Map<string, number[]>();
  events.forEach((event, index) => {
    if (event.type !== 'tool.execution_complete') return;
    const at = completions.get(keyOf(event));
    if (at === undefined) completions.set(keyOf(event), [index]);
    else at.push(index);
  });
  const writtenWithStart = new Set<number>();
  // Once per session and write: later inserts in the same transaction would change nothing.
  const sessions = new Set<string>();
  events.forEach((event, index) => {
    if (!sessions.has(event.sessionId)) {
      sessions.add(event.sessionId);
      statements.push([
        'INSERT INTO sessions (id, started_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
        [event.sessionId, event.timestamp],
      ]);
    }
    if (event.type === 'tool.execution_start') {
      const later = completions.get(keyOf(event))?.find((at) => at > index && !writtenWithStart.has(at));
      if (later !== undefined) writtenWithStart.add(later);
      const completion = later === undefined ? undefined : (events[later] as Completion);
      statements.push([
        `INSERT INTO calls (session_id, call_id, tool, args, turn, started_at, completed_at, status, code, duration_ms, structured, replica)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET tool = excluded.tool, args = excluded.args,
             turn = excluded.turn, started_at = excluded.started_at, completed_at = excluded.completed_at,
             status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
             structured = excluded.structured, replica = excluded.replica`,
        [
          event.sessionId,
          event.callId,
          event.toolName,
          jsonOrNull(event.arguments),
          event.turn ?? null,
          event.timestamp,
          completion?.timestamp ?? null,
          completion === undefined ? 'running' : statusOf(completion),
          completion?.result.code ?? null,
          completion === undefined ? null : Math.round(completion.durationMs),
          jsonOrNull(completion?.result.structured),
          replica,
        ],
      ]);
    } else if (event.type === 'tool.execution_complete' && !writtenWithStart.has(index)) {
      statements.push([
        `INSERT INTO calls (session_id, call_id, tool, turn, completed_at, status, code, duration_ms, structured, replica)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET completed_at = excluded.completed_at,
             status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
             structured = excluded.structured`,
        [
          event.sessionId,
          event.callId,
          event.toolName,
          event.turn ?? null,
          event.timestamp,
          statusOf(event),
          event.result.code ?? null,
          Math.round(event.durationMs),
          jsonOrNull(event.result.structured),
          replica,
        ],
      ]);
    }
    if (transient.has(event.type)) return;
    const callId = 'callId' in event ? (event.callId ?? null) : null;
    statements.push([
      `INSERT INTO events (id, session_id, type, call_id, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      [
        event.id,
        event.sessionId,
        event.type,
        callId,
        event.timestamp,
        texts?.[index] ?? JSON.stringify(event),
      ],
    ]);
  });
  return statements;
}
