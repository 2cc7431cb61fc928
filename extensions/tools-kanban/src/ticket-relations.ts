import { fail, type SqlStore } from '@quiver/types';
import type { LinkType, Ticket, TicketComment } from './ticket-model.js';
import { getTicket } from './ticket-reads.js';
import { missing, now, type Outcome, readRow } from './ticket-rows.js';

export function addComment(
  store: SqlStore,
  id: number,
  author: string,
  body: string,
): Promise<Outcome<TicketComment>> {
  return store.transaction(async (tx): Promise<Outcome<TicketComment>> => {
    if (!(await readRow(tx, id))) return missing(id);
    const createdAt = now();
    const inserted = await tx.get<{ id: number }>(
      'INSERT INTO comments (ticket_id, author, body, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      [id, author, body, createdAt],
    );
    return { ok: true, value: { id: inserted!.id, author, body, createdAt } };
  });
}

export interface LinkChange {
  from: Ticket;
  to: Ticket;
  type: LinkType;
  /** False when the link already existed (or, when removing, did not exist). */
  changed: boolean;
}

export function changeLink(
  store: SqlStore,
  fromId: number,
  toId: number,
  type: LinkType,
  remove: boolean,
): Promise<Outcome<LinkChange>> {
  return store.transaction(async (tx): Promise<Outcome<LinkChange>> => {
    if (fromId === toId) return fail('conflict', `Ticket #${fromId} cannot be linked to itself.`);
    const from = await getTicket(tx, fromId);
    if (!from) return missing(fromId);
    const to = await getTicket(tx, toId);
    if (!to) return missing(toId);
    const result = remove
      ? await tx.run('DELETE FROM links WHERE from_id = ? AND to_id = ? AND type = ?', [fromId, toId, type])
      : await tx.run(
          'INSERT INTO links (from_id, to_id, type, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
          [fromId, toId, type, now()],
        );
    return { ok: true, value: { from, to, type, changed: result.changes === 1 } };
  });
}
