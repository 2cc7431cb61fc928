import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { actorOf, KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketHeader } from '../format-ticket.js';
import { STATUS_TRANSITIONS, TICKET_STATUSES } from '../ticket-model.js';
import { moveTicket } from '../ticket-writes.js';
import { statusField, ticketIdField, versionField } from './fields.js';

const allowedMoves = TICKET_STATUSES.filter((status) => status !== 'archived')
  .map((status) => `${status} → ${STATUS_TRANSITIONS[status].join('/')}`)
  .join('; ');

const input = z.object({
  id: ticketIdField,
  status: statusField.describe('The status to move to.'),
  version: versionField,
  note: z.string().trim().max(1_000).optional().describe('Why it moved; kept in the status history.'),
});

export const kanbanMove = defineTool({
  name: 'kanban_move',
  title: 'Move ticket',
  description: `Change a ticket's status. Allowed moves: ${allowedMoves}. Archived tickets are final; restore them with kanban_archive.`,
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const outcome = await moveTicket(opened.store, args.id, {
      to: args.status,
      actor: actorOf(ctx),
      ...(args.version !== undefined ? { expectedVersion: args.version } : {}),
      ...(args.note !== undefined ? { note: args.note } : {}),
    });
    if (!outcome.ok) return outcome;
    const { ticket, from, moved } = outcome.value;
    const text = moved
      ? `Moved #${ticket.id} from ${from} to ${ticket.status}.\n${formatTicketHeader(ticket)}`
      : `#${ticket.id} is already ${ticket.status}; nothing changed.\n${formatTicketHeader(ticket)}`;
    return ok(text, { structured: { ticket, from, moved } });
  },
});
