import { fail, type SqlQueryable, type ToolFailure } from '@quiver/types';
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

export function readRow(database: SqlQueryable, id: number): Promise<TicketRow | undefined> {
  return database.get<TicketRow>('SELECT * FROM tickets WHERE id = ?', [id]);
}

/**
 * The row, locked until the transaction ends: on PostgreSQL a concurrent writer (another
 * replica) waits here instead of deciding on a state that is about to change. SQLite needs no
 * lock: BEGIN IMMEDIATE already made the transaction the only writer.
 */
function readRowForUpdate(database: SqlQueryable, id: number): Promise<TicketRow | undefined> {
  if (database.dialect === 'sqlite') return readRow(database, id);
  return database.get<TicketRow>('SELECT * FROM tickets WHERE id = ? FOR UPDATE', [id]);
}

export function missing(id: number): ToolFailure {
  return fail('not_found', `Ticket #${id} does not exist. List tickets with kanban_list to find its id.`, {
    ticketId: id,
  });
}

export function stale(row: TicketRow, expected: number): ToolFailure {
  return fail(
    'stale_write',
    `Ticket #${row.id} is at version ${row.version}, not ${expected}: it changed since you read it and is now ${row.status}. ` +
      `Read it again with kanban_get and retry with version ${row.version}.`,
    { ticketId: row.id, currentVersion: row.version, expectedVersion: expected, ticket: toTicket(row) },
  );
}

/** Reads and locks the row and checks the caller's version inside the caller's write transaction. */
export async function readForWrite(
  database: SqlQueryable,
  id: number,
  expectedVersion: number | undefined,
): Promise<Outcome<TicketRow>> {
  const row = await readRowForUpdate(database, id);
  if (!row) return missing(id);
  if (expectedVersion !== undefined && expectedVersion !== row.version) return stale(row, expectedVersion);
  return { ok: true, value: row };
}

export async function recordStatusChange(
  database: SqlQueryable,
  ticketId: number,
  from: TicketStatus | null,
  to: TicketStatus,
  actor: string,
  note: string | null,
  at: string,
): Promise<void> {
  await database.run(
    'INSERT INTO status_history (ticket_id, from_status, to_status, changed_by, note, changed_at) VALUES (?, ?, ?, ?, ?, ?)',
    [ticketId, from, to, actor, note, at],
  );
}
