import { fail, type SqlStore, type ToolFailure } from '@quiver/types';
import { STATUS_TRANSITIONS, type Ticket, type TicketPriority, type TicketStatus } from './ticket-model.js';
import {
  normalizeLabels,
  now,
  type Outcome,
  readForWrite,
  readRow,
  recordStatusChange,
  stale,
  type TicketRow,
  toTicket,
} from './ticket-rows.js';

export interface NewTicket {
  board: string;
  title: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  assignee: string | null;
  labels: string[];
}

export function createTicket(store: SqlStore, input: NewTicket, actor: string): Promise<Ticket> {
  return store.transaction(async (tx): Promise<Ticket> => {
    const at = now();
    const row = (await tx.get<TicketRow>(
      `INSERT INTO tickets (board, title, description, status, priority, assignee, labels, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        input.board,
        input.title,
        input.description,
        input.status,
        input.priority,
        input.assignee,
        JSON.stringify(normalizeLabels(input.labels)),
        at,
        at,
      ],
    )) as TicketRow;
    await recordStatusChange(tx, row.id, null, input.status, actor, null, at);
    return toTicket(row);
  });
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
  store: SqlStore,
  id: number,
  expectedVersion: number | undefined,
  changes: TicketChanges,
): Promise<Outcome<UpdatedTicket>> {
  return store.transaction(async (tx): Promise<Outcome<UpdatedTicket>> => {
    const read = await readForWrite(tx, id, expectedVersion);
    if (!read.ok) return read;
    const current = toTicket(read.value);
    const next = { ...current };
    if (changes.title !== undefined) next.title = changes.title;
    if (changes.description !== undefined) next.description = changes.description;
    if (changes.priority !== undefined) next.priority = changes.priority;
    if (changes.assignee !== undefined) next.assignee = changes.assignee;
    // Label edits are computed from the row read (and locked) inside this transaction, so
    // concurrent add/remove calls without a version never drop each other's labels.
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
    const updated = await tx.get<TicketRow>(
      `UPDATE tickets SET title = ?, description = ?, priority = ?, assignee = ?, labels = ?,
         updated_at = ?, version = version + 1
       WHERE id = ? AND version = ? RETURNING *`,
      [
        next.title,
        next.description,
        next.priority,
        next.assignee,
        JSON.stringify(next.labels),
        now(),
        id,
        current.version,
      ],
    );
    if (!updated) return stale((await readRow(tx, id))!, current.version);
    return { ok: true, value: { ticket: toTicket(updated), changed } };
  });
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

export function moveTicket(store: SqlStore, id: number, move: StatusMove): Promise<Outcome<MovedTicket>> {
  return store.transaction(async (tx): Promise<Outcome<MovedTicket>> => {
    const read = await readForWrite(tx, id, move.expectedVersion);
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
    // The version condition is a second guard behind the row lock: a move never lands on a
    // state other than the one it was decided on.
    const moved = await tx.get<TicketRow>(
      `UPDATE tickets SET status = ?, status_before_archive = ?, updated_at = ?, version = version + 1
       WHERE id = ? AND version = ? RETURNING *`,
      [to, to === 'archived' ? row.status : null, at, id, row.version],
    );
    if (!moved) return stale((await readRow(tx, id))!, row.version);
    await recordStatusChange(tx, id, row.status, to, move.actor, move.note ?? null, at);
    return { ok: true, value: { ticket: toTicket(moved), from: row.status, moved: true } };
  });
}
