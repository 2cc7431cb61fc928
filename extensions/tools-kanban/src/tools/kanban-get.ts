import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketDetails } from '../format-ticket.js';
import { getTicketDetails } from '../ticket-reads.js';
import { ticketIdField } from './fields.js';

const input = z.object({ id: ticketIdField });

export const kanbanGet = defineTool({
  name: 'kanban_get',
  title: 'Show ticket',
  description:
    'Show one ticket in full: description, links, comments, status history and the version to pass to later updates.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const ticket = await getTicketDetails(opened.store, args.id);
    if (!ticket) {
      return fail(
        'not_found',
        `Ticket #${args.id} does not exist. List tickets with kanban_list to find its id.`,
        {
          ticketId: args.id,
        },
      );
    }
    return ok(formatTicketDetails(ticket), { structured: { ticket } });
  },
});
