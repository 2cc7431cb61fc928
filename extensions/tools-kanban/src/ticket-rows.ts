import { fail, type SqlDatabase, type ToolFailure } from '@quiver/types';
import type { Ticket, TicketPriority, TicketStatus, TicketSummary } from './ticket-model.js';

export type Outcome<T> = { ok: true; value: T } | ToolFailure;

export interface TicketRow {
  id: number;
  board: string;
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  assignee: string | null;
  labels: string;
  status_before_archive: TicketStatus | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export function toTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    board: row.board,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assignee: row.assignee,
    labels: JSON.parse(row.labels) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export function toSummary(ticket: Ticket): TicketSummary {
  const { description: _description, ...summary } = ticket;
  return summary;
}

export function now(): string {
  return new Date().toISOString();
}

export function normalizeLabels(labels: readonly string[]): string[] {
  return [...new Set(labels.map((label) => label.trim()).filter((label) => label.length > 0))];
}

export function readRow(database: SqlDatabase, id: number): TicketRow | undefined {
  return database.prepare('SELECT * FROM tickets WHERE id = ?').get(id) as TicketRow | undefined;
}

export function missing(id: number): ToolFailure {
  return fail('not_found', `Ticket #${id} does not exist. List tickets with kanban_list to find its id.`, {
    ticketId: id,
  });
}

export function stale(row: TicketRow, expected: number): ToolFailure {
  return fail(
    'stale_write',
    `Ticket #${row.id} is at version ${row.version}, not ${expected}: it changed since you read it. ` +
      `Read it again with kanban_get and retry with version ${row.version}.`,
    { ticketId: row.id, currentVersion: row.version, expectedVersion: expected, ticket: toTicket(row) },
  );
}

/** Reads the row and checks the caller's version inside the caller's write transaction. */
export function readForWrite(
  database: SqlDatabase,
  id: number,
  expectedVersion: number | undefined,
): Outcome<TicketRow> {
  const row = readRow(database, id);
  if (!row) return missing(id);
  if (expectedVersion !== undefined && expectedVersion !== row.version) return stale(row, expectedVersion);
  return { ok: true, value: row };
}

export function recordStatusChange(
  database: SqlDatabase,
  ticketId: number,
  from: TicketStatus | null,
  to: TicketStatus,
  actor: string,
  note: string | null,
  at: string,
): void {
  database
    .prepare(
      'INSERT INTO status_history (ticket_id, from_status, to_status, changed_by, note, changed_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(ticketId, from, to, actor, note, at);
}
