import type { QuiverEvent, QuiverEventOf, SqlDatabase } from '@quiver/types';

/** Writes events as rows of the session log; the caller owns the transaction. */
export type EventRowWriter = (events: readonly QuiverEvent[]) => void;

/**
 * The statements that turn lifecycle events into the log's rows, compiled once per connection.
 * A call's start becomes a `running` calls row (for orphan recovery) and is not kept as an
 * event; its completion fills the row in (or, in the same write, is written with it as one row,
 * at the start's place); every other event is kept whole.
 *
 * This function is also the body of the log's writer thread (its source is sent there), so it
 * refers to nothing outside itself.
 */
export function createEventRowWriter(db: SqlDatabase, transientTypes: readonly string[]): EventRowWriter {
  const transient = new Set(transientTypes);
  const insertSession = db.prepare(
    'INSERT INTO sessions (id, started_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const insertEvent = db.prepare(
    `INSERT INTO events (id, session_id, type, call_id, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
  );
  const recordCall = db.prepare(
    `INSERT INTO calls (session_id, call_id, tool, args, turn, started_at, completed_at, status, code, duration_ms, structured)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, call_id) DO UPDATE SET tool = excluded.tool, args = excluded.args,
         turn = excluded.turn, started_at = excluded.started_at, completed_at = excluded.completed_at,
         status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
         structured = excluded.structured`,
  );
  const recordCompletion = db.prepare(
    `INSERT INTO calls (session_id, call_id, tool, turn, completed_at, status, code, duration_ms, structured)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, call_id) DO UPDATE SET completed_at = excluded.completed_at,
         status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
         structured = excluded.structured`,
  );
  const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

  const statusOf = (event: QuiverEventOf<'tool.execution_complete'>): string =>
    event.success ? 'ok' : event.result.code === 'interrupted' ? 'interrupted' : 'error';
  const start = (
    event: QuiverEventOf<'tool.execution_start'>,
    completion: QuiverEventOf<'tool.execution_complete'> | undefined,
  ): void => {
    recordCall.run(
      event.sessionId,
      event.callId,
      event.toolName,
      jsonOrNull(event.arguments),
      event.turn,
      event.timestamp,
      completion?.timestamp ?? null,
      completion === undefined ? 'running' : statusOf(completion),
      completion?.result.code ?? null,
      completion === undefined ? null : Math.round(completion.durationMs),
      jsonOrNull(completion?.result.structured),
    );
  };
  const complete = (event: QuiverEventOf<'tool.execution_complete'>): void => {
    recordCompletion.run(
      event.sessionId,
      event.callId,
      event.toolName,
      event.turn,
      event.timestamp,
      statusOf(event),
      event.result.code ?? null,
      Math.round(event.durationMs),
      jsonOrNull(event.result.structured),
    );
  };
  const keyOf = (event: { sessionId: string; callId: string }): string =>
    `${event.sessionId}\u0000${event.callId}`;

  return (events) => {
    // Where each call's completions are in this write, so that a start can take the one after it.
    const completions = new Map<string, number[]>();
    events.forEach((event, index) => {
      if (event.type !== 'tool.execution_complete') return;
      const key = keyOf(event);
      const at = completions.get(key);
      if (at === undefined) completions.set(key, [index]);
      else at.push(index);
    });
    const writtenWithStart = new Set<number>();
    // Once per session and write: later inserts in the same transaction would change nothing.
    const sessions = new Set<string>();
    events.forEach((event, index) => {
      if (!sessions.has(event.sessionId)) {
        insertSession.run(event.sessionId, event.timestamp);
        sessions.add(event.sessionId);
      }
      if (event.type === 'tool.execution_start') {
        const later = completions.get(keyOf(event))?.find((at) => at > index && !writtenWithStart.has(at));
        if (later !== undefined) writtenWithStart.add(later);
        start(
          event,
          later === undefined ? undefined : (events[later] as QuiverEventOf<'tool.execution_complete'>),
        );
      } else if (event.type === 'tool.execution_complete' && !writtenWithStart.has(index)) complete(event);
      if (transient.has(event.type)) return;
      const callId = 'callId' in event ? event.callId : null;
      insertEvent.run(event.id, event.sessionId, event.type, callId, event.timestamp, JSON.stringify(event));
    });
  };
}
