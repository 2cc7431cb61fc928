import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { actorOf, KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketHeader } from '../format-ticket.js';
import { moveTicket } from '../ticket-writes.js';
import { ticketIdField, versionField } from './fields.js';

const input = z.object({
  id: ticketIdField,
  version: versionField,
  restore: z
    .boolean()
    .default(false)
    .describe('Bring an archived ticket back to the status it had before it was archived.'),
  reason: z.string().trim().max(1_000).optional().describe('Why; kept in the status history.'),
});

export const kanbanArchive = defineTool({
  name: 'kanban_archive',
  title: 'Archive or restore ticket',
  description:
    'Archive a ticket (hidden from kanban_list, kept with its history), or restore an archived ticket with restore: true.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const outcome = await moveTicket(opened.store, args.id, {
      to: args.restore ? 'restore' : 'archived',
      actor: actorOf(ctx),
      ...(args.version !== undefined ? { expectedVersion: args.version } : {}),
      ...(args.reason !== undefined ? { note: args.reason } : {}),
    });
    if (!outcome.ok) return outcome;
    const { ticket, moved } = outcome.value;
    const text = args.restore
      ? `Restored #${ticket.id} to ${ticket.status}.`
      : moved
        ? `Archived #${ticket.id}; restore it with kanban_archive and restore: true.`
        : `#${ticket.id} was already archived.`;
    return ok(`${text}\n${formatTicketHeader(ticket)}`, { structured: { ticket, moved } });
  },
});
