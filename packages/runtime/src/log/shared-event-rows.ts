import type { QuiverEvent, QuiverEventOf, SqlQueryable } from '@quiver/types';
import { TRANSIENT_EVENT_TYPES } from '@quiver/types';

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

const statusOf = (event: QuiverEventOf<'tool.execution_complete'>): string =>
  event.success ? 'ok' : event.result.code === 'interrupted' ? 'interrupted' : 'error';

/**
 * Writes events as rows of the shared session log inside the caller's transaction, as the
 * SQLite writer thread does: a call's start becomes a `running` calls row stamped with the replica that
 * runs it (so only that replica's death makes it an orphan), its completion fills the row in,
 * and every durable event is kept whole.
 */
export async function writeEventRows(
  tx: SqlQueryable,
  replica: string,
  events: readonly QuiverEvent[],
): Promise<void> {
  const sessions = new Set<string>();
  for (const event of events) {
    if (!sessions.has(event.sessionId)) {
      sessions.add(event.sessionId);
      await tx.run('INSERT INTO sessions (id, started_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [
        event.sessionId,
        event.timestamp,
      ]);
    }
    if (event.type === 'tool.execution_start') {
      await tx.run(
        `INSERT INTO calls (session_id, call_id, tool, args, turn, started_at, status, replica)
           VALUES (?, ?, ?, ?, ?, ?, 'running', ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET tool = excluded.tool, args = excluded.args,
             turn = excluded.turn, started_at = excluded.started_at, replica = excluded.replica`,
        [
          event.sessionId,
          event.callId,
          event.toolName,
          jsonOrNull(event.arguments),
          event.turn,
          event.timestamp,
          replica,
        ],
      );
    } else if (event.type === 'tool.execution_complete') {
      await tx.run(
        `INSERT INTO calls (session_id, call_id, tool, turn, completed_at, status, code, duration_ms, structured, replica)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET completed_at = excluded.completed_at,
             status = excluded.status, code = excluded.code, duration_ms = excluded.duration_ms,
             structured = excluded.structured`,
        [
          event.sessionId,
          event.callId,
          event.toolName,
          event.turn,
          event.timestamp,
          statusOf(event),
          event.result.code ?? null,
          Math.round(event.durationMs),
          jsonOrNull(event.result.structured),
          replica,
        ],
      );
    }
    if (TRANSIENT_EVENT_TYPES.has(event.type)) continue;
    const callId = 'callId' in event ? (event.callId ?? null) : null;
    await tx.run(
      `INSERT INTO events (id, session_id, type, call_id, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      [event.id, event.sessionId, event.type, callId, event.timestamp, JSON.stringify(event)],
    );
  }
}
