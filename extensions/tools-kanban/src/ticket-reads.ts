import type { SqlDatabase } from '@quiver/types';
import {
  type StatusChange,
  type Ticket,
  type TicketComment,
  type TicketDetails,
  type TicketLink,
  type TicketStatus,
  type TicketSummary,
} from './ticket-model.js';
import { readRow, type TicketRow, toSummary, toTicket } from './ticket-rows.js';

export function getTicket(database: SqlDatabase, id: number): Ticket | undefined {
  const row = readRow(database, id);
  return row ? toTicket(row) : undefined;
}

export function getTicketDetails(database: SqlDatabase, id: number): TicketDetails | undefined {
  return database
    .transaction((): TicketDetails | undefined => {
      const ticket = getTicket(database, id);
      if (!ticket) return undefined;
      const links = database
        .prepare(
          `SELECT l.type, 'outgoing' AS direction, t.id AS ticketId, t.title, t.status
             FROM links l JOIN tickets t ON t.id = l.to_id WHERE l.from_id = ?
           UNION ALL
           SELECT l.type, 'incoming' AS direction, t.id AS ticketId, t.title, t.status
             FROM links l JOIN tickets t ON t.id = l.from_id WHERE l.to_id = ?
           ORDER BY ticketId, type`,
        )
        .all(id, id) as TicketLink[];
      const comments = database
        .prepare(
          'SELECT id, author, body, created_at AS createdAt FROM comments WHERE ticket_id = ? ORDER BY id',
        )
        .all(id) as TicketComment[];
      const history = database
        .prepare(
          `SELECT from_status AS "from", to_status AS "to", changed_at AS at, changed_by AS by, note
             FROM status_history WHERE ticket_id = ? ORDER BY id`,
        )
        .all(id) as StatusChange[];
      return { ...ticket, links, comments, history };
    })
    .deferred();
}

export interface TicketFilter {
  board?: string;
  statuses?: readonly TicketStatus[];
  assignee?: string;
  label?: string;
  text?: string;
  includeArchived: boolean;
  limit: number;
}

export interface TicketPage {
  tickets: TicketSummary[];
  /** Matches before `limit` was applied. */
  total: number;
}

const STATUS_ORDER_SQL = `CASE status WHEN 'in_progress' THEN 0 WHEN 'blocked' THEN 1 WHEN 'todo' THEN 2 WHEN 'done' THEN 3 ELSE 4 END`;
const PRIORITY_ORDER_SQL = `CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export function listTickets(database: SqlDatabase, filter: TicketFilter): TicketPage {
  const conditions: string[] = [];
  const parameters: unknown[] = [];
  if (filter.board !== undefined) {
    conditions.push('board = ?');
    parameters.push(filter.board);
  }
  if (filter.statuses && filter.statuses.length > 0) {
    conditions.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    parameters.push(...filter.statuses);
  } else if (!filter.includeArchived) {
    conditions.push(`status <> 'archived'`);
  }
  if (filter.assignee !== undefined) {
    conditions.push('assignee = ? COLLATE NOCASE');
    parameters.push(filter.assignee);
  }
  if (filter.label !== undefined) {
    conditions.push('EXISTS (SELECT 1 FROM json_each(tickets.labels) WHERE value = ? COLLATE NOCASE)');
    parameters.push(filter.label);
  }
  if (filter.text !== undefined && filter.text.trim() !== '') {
    conditions.push(`(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')`);
    const pattern = `%${escapeLike(filter.text.trim())}%`;
    parameters.push(pattern, pattern);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return database
    .transaction((): TicketPage => {
      const { total } = database
        .prepare(`SELECT count(*) AS total FROM tickets ${where}`)
        .get(...parameters) as {
        total: number;
      };
      const rows = database
        .prepare(
          `SELECT * FROM tickets ${where}
           ORDER BY ${STATUS_ORDER_SQL}, ${PRIORITY_ORDER_SQL}, updated_at DESC, id DESC LIMIT ?`,
        )
        .all(...parameters, filter.limit) as TicketRow[];
      return { tickets: rows.map((row) => toSummary(toTicket(row))), total };
    })
    .deferred();
}
