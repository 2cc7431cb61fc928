import type { QuiverEvent, QuiverEventOf } from '@quiver/types';
import type Database from 'better-sqlite3';

/** Writes events as rows of the session log; the caller owns the transaction. */
export type EventRowWriter = (events: readonly QuiverEvent[]) => void;

/**
 * The statements that turn lifecycle events into the log's rows, compiled once per connection.
 * A call's start becomes a `running` calls row (for orphan recovery) and is not kept as an
 * event; its completion fills the row in; every other event is kept whole.
 *
 * This function is also the body of the log's writer thread (its source is sent there), so it
 * refers to nothing outside itself.
 */
export function createEventRowWriter(
  db: Database.Database,
  transientTypes: readonly string[],
): EventRowWriter {
  const transient = new Set(transientTypes);
  const insertSession = db.prepare(
    'INSERT INTO sessions (id, started_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const insertEvent = db.prepare(
    `INSERT INTO events (id, session_id, type, call_id, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
  );
  const recordStart = db.prepare(
    `INSERT INTO calls (session_id, call_id, tool, args, turn, started_at, status) VALUES (?, ?, ?, ?, ?, ?, 'running')
       ON CONFLICT (session_id, call_id) DO UPDATE SET tool = excluded.tool, args = excluded.args,
         turn = excluded.turn, started_at = excluded.started_at, completed_at = NULL, status = 'running',
         code = NULL, duration_ms = NULL, structured = NULL`,
  );
  const recordCompletion = db.prepare(
    `INSERT INTO calls (session_id, call_id, tool, turn, completed_at, status, code, duration_ms, structured)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, call_id) DO UPDATE SET completed_at = excluded.completed_at,
         status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
         structured = excluded.structured`,
  );
  const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

  const start = (event: QuiverEventOf<'tool.execution_start'>): void => {
    recordStart.run(
      event.sessionId,
      event.callId,
      event.toolName,
      jsonOrNull(event.arguments),
      event.turn,
      event.timestamp,
    );
  };
  const complete = (event: QuiverEventOf<'tool.execution_complete'>): void => {
    const status = event.success ? 'ok' : event.result.code === 'interrupted' ? 'interrupted' : 'error';
    recordCompletion.run(
      event.sessionId,
      event.callId,
      event.toolName,
      event.turn,
      event.timestamp,
      status,
      event.result.code ?? null,
      Math.round(event.durationMs),
      jsonOrNull(event.result.structured),
    );
  };

  return (events) => {
    // Once per session and write: later inserts in the same transaction would change nothing.
    const sessions = new Set<string>();
    for (const event of events) {
      if (!sessions.has(event.sessionId)) {
        insertSession.run(event.sessionId, event.timestamp);
        sessions.add(event.sessionId);
      }
      if (event.type === 'tool.execution_start') start(event);
      else if (event.type === 'tool.execution_complete') complete(event);
      if (transient.has(event.type)) continue;
      const callId = 'callId' in event ? event.callId : null;
      insertEvent.run(event.id, event.sessionId, event.type, callId, event.timestamp, JSON.stringify(event));
    }
  };
}
