import type { SqlParameter } from '@quiver/types';
import type { EventRowStatement } from './event-rows.js';
import type { SessionRecordInput } from './records.js';

/** Who a session is for; a session started again is open again. */
export function sessionStartStatement(session: SessionRecordInput): EventRowStatement {
  return [
    `INSERT INTO sessions (id, personality, agent, caller, started_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET personality = coalesce(excluded.personality, sessions.personality),
         agent = coalesce(excluded.agent, sessions.agent),
         caller = coalesce(excluded.caller, sessions.caller), ended_at = NULL`,
    [
      session.id,
      session.personalityId ?? null,
      session.agent ?? null,
      session.caller ?? null,
      session.startedAt ?? Date.now(),
    ],
  ];
}

export function sessionEndStatement(sessionId: string, endedAt: number): EventRowStatement {
  return ['UPDATE sessions SET ended_at = ? WHERE id = ?', [endedAt, sessionId]];
}

/** A call left running, now interrupted, as the recovery statement returns it. */
export interface RecoveredCallRow {
  session_id: string;
  call_id: string;
  tool: string;
  replica: string | null;
  started_at: number | string | null;
}

/**
 * Marks interrupted the running calls (of one session, or all) of replicas other than `replica`
 * for which `dead` holds, and returns them (unordered: sort by `started_at`, `call_id`). On a
 * single host every other process's call counts (`dead` is always true), and the log's rows carry
 * no replica.
 */
export function orphanRecoveryStatement(
  sessionId: string | undefined,
  replica: string,
  dead: { sql: string; params: SqlParameter[] },
): EventRowStatement {
  return [
    `UPDATE calls SET status = 'interrupted', code = 'interrupted', completed_at = ?
     WHERE status = 'running'${sessionId === undefined ? '' : ' AND session_id = ?'}
       AND replica IS DISTINCT FROM ? AND ${dead.sql}
     RETURNING session_id, call_id, tool, replica, started_at`,
    [Date.now(), ...(sessionId === undefined ? [] : [sessionId]), replica, ...dead.params],
  ];
}

/** Recovered calls in the order they started. */
export function inStartOrder<Row extends RecoveredCallRow>(rows: readonly Row[]): Row[] {
  return [...rows].sort(
    (a, b) =>
      Number(a.started_at ?? 0) - Number(b.started_at ?? 0) ||
      (a.call_id < b.call_id ? -1 : a.call_id > b.call_id ? 1 : 0),
  );
}
