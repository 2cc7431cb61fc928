import type { SqlParameter, SqlQueryable, SqlStore } from '@quiver/types';
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

export async function getTicket(database: SqlQueryable, id: number): Promise<Ticket | undefined> {
  const row = await readRow(database, id);
  return row ? toTicket(row) : undefined;
}

export function getTicketDetails(store: SqlStore, id: number): Promise<TicketDetails | undefined> {
  return store.transaction(async (tx): Promise<TicketDetails | undefined> => {
    const ticket = await getTicket(tx, id);
    if (!ticket) return undefined;
    // Aliases are quoted: PostgreSQL folds unquoted ones to lower case.
    const links = await tx.all<TicketLink>(
      `SELECT l.type, 'outgoing' AS direction, t.id AS "ticketId", t.title, t.status
         FROM links l JOIN tickets t ON t.id = l.to_id WHERE l.from_id = ?
       UNION ALL
       SELECT l.type, 'incoming' AS direction, t.id AS "ticketId", t.title, t.status
         FROM links l JOIN tickets t ON t.id = l.from_id WHERE l.to_id = ?
       ORDER BY "ticketId", type`,
      [id, id],
    );
    const comments = await tx.all<TicketComment>(
      'SELECT id, author, body, created_at AS "createdAt" FROM comments WHERE ticket_id = ? ORDER BY id',
      [id],
    );
    const history = await tx.all<StatusChange>(
      `SELECT from_status AS "from", to_status AS "to", changed_at AS "at", changed_by AS "by", note
         FROM status_history WHERE ticket_id = ? ORDER BY id`,
      [id],
    );
    return { ...ticket, links, comments, history };
  });
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

// SQLite's NOCASE and LIKE fold ASCII case; PostgreSQL needs lower() and ILIKE to match the same.
const DIALECT_CONDITIONS = {
  sqlite: {
    assignee: 'assignee = ? COLLATE NOCASE',
    label: 'EXISTS (SELECT 1 FROM json_each(tickets.labels) WHERE value = ? COLLATE NOCASE)',
    text: `(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')`,
  },
  postgres: {
    assignee: 'lower(assignee) = lower(?)',
    label:
      'EXISTS (SELECT 1 FROM json_array_elements_text(tickets.labels::json) AS label(value) WHERE lower(label.value) = lower(?))',
    text: `(title ILIKE ? ESCAPE '\\' OR description ILIKE ? ESCAPE '\\')`,
  },
} as const;

export function listTickets(store: SqlStore, filter: TicketFilter): Promise<TicketPage> {
  const dialect = DIALECT_CONDITIONS[store.dialect];
  const conditions: string[] = [];
  const parameters: SqlParameter[] = [];
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
    conditions.push(dialect.assignee);
    parameters.push(filter.assignee);
  }
  if (filter.label !== undefined) {
    conditions.push(dialect.label);
    parameters.push(filter.label);
  }
  if (filter.text !== undefined && filter.text.trim() !== '') {
    conditions.push(dialect.text);
    const pattern = `%${escapeLike(filter.text.trim())}%`;
    parameters.push(pattern, pattern);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return store.transaction(async (tx): Promise<TicketPage> => {
    const counted = await tx.get<{ total: number }>(
      `SELECT count(*) AS total FROM tickets ${where}`,
      parameters,
    );
    const rows = await tx.all<TicketRow>(
      `SELECT * FROM tickets ${where}
       ORDER BY ${STATUS_ORDER_SQL}, ${PRIORITY_ORDER_SQL}, updated_at DESC, id DESC LIMIT ?`,
      [...parameters, filter.limit],
    );
    return { tickets: rows.map((row) => toSummary(toTicket(row))), total: counted!.total };
  });
}
