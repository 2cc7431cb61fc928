import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketList } from '../format-ticket.js';
import { listTickets } from '../ticket-reads.js';
import { boardField, statusField } from './fields.js';

const input = z.object({
  board: boardField.optional().describe('Only this board; every board when omitted.'),
  status: z
    .union([statusField, z.array(statusField).min(1)])
    .optional()
    .describe('Only tickets with this status (or any of these statuses).'),
  assignee: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Only tickets assigned to this name (case-insensitive).'),
  label: z.string().trim().min(1).optional().describe('Only tickets carrying this label.'),
  text: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Only tickets whose title or description contains this text.'),
  includeArchived: z
    .boolean()
    .default(false)
    .describe('Also list archived tickets (they are hidden unless a status filter asks for them).'),
  limit: z.number().int().min(1).max(500).default(200).describe('At most this many tickets.'),
});

export const kanbanList = defineTool({
  name: 'kanban_list',
  title: 'List tickets',
  description:
    'List tickets grouped by status, most urgent first, with filters for board, status, assignee, label and text.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const statuses =
      args.status === undefined ? undefined : Array.isArray(args.status) ? args.status : [args.status];
    const page = await listTickets(opened.store, {
      ...(args.board !== undefined ? { board: args.board } : {}),
      ...(statuses !== undefined ? { statuses } : {}),
      ...(args.assignee !== undefined ? { assignee: args.assignee } : {}),
      ...(args.label !== undefined ? { label: args.label } : {}),
      ...(args.text !== undefined ? { text: args.text } : {}),
      includeArchived: args.includeArchived,
      limit: args.limit,
    });
    const where = args.board === undefined ? 'all boards' : `board ${args.board}`;
    const shown = page.total > page.tickets.length ? ` (showing ${page.tickets.length})` : '';
    const heading = `${page.total} ticket${page.total === 1 ? '' : 's'} on ${where}${shown}`;
    return ok(formatTicketList(page.tickets, heading), {
      structured: { board: args.board ?? null, total: page.total, tickets: page.tickets },
    });
  },
});
