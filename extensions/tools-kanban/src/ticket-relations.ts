import { fail, type SqlDatabase } from '@quiver/types';
import type { LinkType, Ticket, TicketComment } from './ticket-model.js';
import { getTicket } from './ticket-reads.js';
import { missing, now, type Outcome, readRow } from './ticket-rows.js';

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
