import { fail, type SqlDatabase, type ToolFailure } from '@quiver/types';
import {
  type LinkType,
  STATUS_TRANSITIONS,
  type StatusChange,
  type Ticket,
  type TicketComment,
  type TicketDetails,
  type TicketLink,
  type TicketPriority,
  type TicketStatus,
  type TicketSummary,
} from './ticket-model.js';

export type Outcome<T> = { ok: true; value: T } | ToolFailure;

interface TicketRow {
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

function toTicket(row: TicketRow): Ticket {
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

function toSummary(ticket: Ticket): TicketSummary {
  const { description: _description, ...summary } = ticket;
  return summary;
}

function now(): string {
  return new Date().toISOString();
}

export function normalizeLabels(labels: readonly string[]): string[] {
  return [...new Set(labels.map((label) => label.trim()).filter((label) => label.length > 0))];
}

function readRow(database: SqlDatabase, id: number): TicketRow | undefined {
  return database.prepare('SELECT * FROM tickets WHERE id = ?').get(id) as TicketRow | undefined;
}

function missing(id: number): ToolFailure {
  return fail('not_found', `Ticket #${id} does not exist. List tickets with kanban_list to find its id.`, {
    ticketId: id,
  });
}

function stale(row: TicketRow, expected: number): ToolFailure {
  return fail(
    'stale_write',
    `Ticket #${row.id} is at version ${row.version}, not ${expected}: it changed since you read it. ` +
      `Read it again with kanban_get and retry with version ${row.version}.`,
    { ticketId: row.id, currentVersion: row.version, expectedVersion: expected, ticket: toTicket(row) },
  );
}

/** Reads the row and checks the caller's version inside the caller's write transaction. */
function readForWrite(
  database: SqlDatabase,
  id: number,
  expectedVersion: number | undefined,
): Outcome<TicketRow> {
  const row = readRow(database, id);
  if (!row) return missing(id);
  if (expectedVersion !== undefined && expectedVersion !== row.version) return stale(row, expectedVersion);
  return { ok: true, value: row };
}

function recordStatusChange(
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

export interface NewTicket {
  board: string;
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  assignee: string | null;
  labels: string[];
}

export function createTicket(database: SqlDatabase, input: NewTicket, actor: string): Ticket {
  return database
    .transaction((): Ticket => {
      const at = now();
      const { lastInsertRowid } = database
        .prepare(
          `INSERT INTO tickets (board, title, description, status, priority, assignee, labels, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.board,
          input.title,
          input.description,
          input.status,
          input.priority,
          input.assignee,
          JSON.stringify(normalizeLabels(input.labels)),
          at,
          at,
        );
      const id = Number(lastInsertRowid);
      recordStatusChange(database, id, null, input.status, actor, null, at);
      return toTicket(readRow(database, id)!);
    })
    .immediate();
}

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

export interface TicketChanges {
  title?: string;
  description?: string;
  priority?: TicketPriority;
  assignee?: string | null;
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
}

export interface UpdatedTicket {
  ticket: Ticket;
  changed: string[];
}

export function updateTicket(
  database: SqlDatabase,
  id: number,
  expectedVersion: number | undefined,
  changes: TicketChanges,
): Outcome<UpdatedTicket> {
  return database
    .transaction((): Outcome<UpdatedTicket> => {
      const read = readForWrite(database, id, expectedVersion);
      if (!read.ok) return read;
      const current = toTicket(read.value);
      const next = { ...current };
      if (changes.title !== undefined) next.title = changes.title;
      if (changes.description !== undefined) next.description = changes.description;
      if (changes.priority !== undefined) next.priority = changes.priority;
      if (changes.assignee !== undefined) next.assignee = changes.assignee;
      // Label edits are computed from the row read inside this transaction, so concurrent
      // add/remove calls without a version never drop each other's labels.
      let labels = changes.labels !== undefined ? normalizeLabels(changes.labels) : current.labels;
      if (changes.addLabels) labels = normalizeLabels([...labels, ...changes.addLabels]);
      if (changes.removeLabels) {
        const removed = new Set(normalizeLabels(changes.removeLabels));
        labels = labels.filter((label) => !removed.has(label));
      }
      next.labels = labels;
      const changed = (['title', 'description', 'priority', 'assignee'] as const).filter(
        (field) => next[field] !== current[field],
      ) as string[];
      if (JSON.stringify(next.labels) !== JSON.stringify(current.labels)) changed.push('labels');
      if (changed.length === 0) return { ok: true, value: { ticket: current, changed } };
      const result = database
        .prepare(
          `UPDATE tickets SET title = ?, description = ?, priority = ?, assignee = ?, labels = ?,
             updated_at = ?, version = version + 1
           WHERE id = ? AND version = ?`,
        )
        .run(
          next.title,
          next.description,
          next.priority,
          next.assignee,
          JSON.stringify(next.labels),
          now(),
          id,
          current.version,
        );
      if (result.changes !== 1) return stale(readRow(database, id)!, current.version);
      return { ok: true, value: { ticket: toTicket(readRow(database, id)!), changed } };
    })
    .immediate();
}

export interface StatusMove {
  to: TicketStatus | 'restore';
  expectedVersion?: number;
  note?: string;
  actor: string;
}

export interface MovedTicket {
  ticket: Ticket;
  from: TicketStatus;
  /** False when the ticket already had the target status. */
  moved: boolean;
}

function transitionRefused(row: TicketRow, to: TicketStatus): ToolFailure {
  const allowed = STATUS_TRANSITIONS[row.status];
  const hint =
    row.status === 'archived'
      ? 'Archived tickets are final; bring one back with kanban_archive and restore: true.'
      : `From ${row.status} it can move to: ${allowed.join(', ')}.`;
  return fail('conflict', `Ticket #${row.id} cannot move from ${row.status} to ${to}. ${hint}`, {
    ticketId: row.id,
    from: row.status,
    to,
    allowed: [...allowed],
  });
}

export function moveTicket(database: SqlDatabase, id: number, move: StatusMove): Outcome<MovedTicket> {
  return database
    .transaction((): Outcome<MovedTicket> => {
      const read = readForWrite(database, id, move.expectedVersion);
      if (!read.ok) return read;
      const row = read.value;
      let to: TicketStatus;
      if (move.to === 'restore') {
        if (row.status !== 'archived') {
          return fail(
            'conflict',
            `Ticket #${id} is ${row.status}, not archived; there is nothing to restore.`,
            {
              ticketId: id,
              status: row.status,
            },
          );
        }
        to = row.status_before_archive ?? 'todo';
      } else {
        to = move.to;
        if (to === row.status)
          return { ok: true, value: { ticket: toTicket(row), from: row.status, moved: false } };
        if (!STATUS_TRANSITIONS[row.status].includes(to)) return transitionRefused(row, to);
      }
      const at = now();
      database
        .prepare(
          `UPDATE tickets SET status = ?, status_before_archive = ?, updated_at = ?, version = version + 1
           WHERE id = ? AND version = ?`,
        )
        .run(to, to === 'archived' ? row.status : null, at, id, row.version);
      recordStatusChange(database, id, row.status, to, move.actor, move.note ?? null, at);
      return { ok: true, value: { ticket: toTicket(readRow(database, id)!), from: row.status, moved: true } };
    })
    .immediate();
}

export function addComment(
  database: SqlDatabase,
  id: number,
  author: string,
  body: string,
): Outcome<TicketComment> {
  return database
    .transaction((): Outcome<TicketComment> => {
      if (!readRow(database, id)) return missing(id);
      const createdAt = now();
      const { lastInsertRowid } = database
        .prepare('INSERT INTO comments (ticket_id, author, body, created_at) VALUES (?, ?, ?, ?)')
        .run(id, author, body, createdAt);
      return { ok: true, value: { id: Number(lastInsertRowid), author, body, createdAt } };
    })
    .immediate();
}

export interface LinkChange {
  from: Ticket;
  to: Ticket;
  type: LinkType;
  /** False when the link already existed (or, when removing, did not exist). */
  changed: boolean;
}

export function changeLink(
  database: SqlDatabase,
  fromId: number,
  toId: number,
  type: LinkType,
  remove: boolean,
): Outcome<LinkChange> {
  return database
    .transaction((): Outcome<LinkChange> => {
      if (fromId === toId) return fail('conflict', `Ticket #${fromId} cannot be linked to itself.`);
      const from = getTicket(database, fromId);
      if (!from) return missing(fromId);
      const to = getTicket(database, toId);
      if (!to) return missing(toId);
      const result = remove
        ? database
            .prepare('DELETE FROM links WHERE from_id = ? AND to_id = ? AND type = ?')
            .run(fromId, toId, type)
        : database
            .prepare('INSERT OR IGNORE INTO links (from_id, to_id, type, created_at) VALUES (?, ?, ?, ?)')
            .run(fromId, toId, type, now());
      return { ok: true, value: { from, to, type, changed: result.changes === 1 } };
    })
    .immediate();
}
