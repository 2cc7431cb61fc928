import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { actorOf, KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketHeader } from '../format-ticket.js';
import { createTicket } from '../ticket-writes.js';
import { boardField, labelsField, priorityField } from './fields.js';

const input = z.object({
  title: z.string().trim().min(1).max(200).describe('One-line summary of the work.'),
  description: z.string().max(20_000).default('').describe('Details, acceptance criteria, context.'),
  board: boardField.default('main'),
  priority: priorityField.default('medium'),
  status: z
    .enum(['todo', 'in_progress', 'blocked'])
    .default('todo')
    .describe('Starting status; new tickets are usually todo.'),
  assignee: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Who works on it (a person or agent name).'),
  labels: labelsField.default([]),
});

export const kanbanCreate = defineTool({
  name: 'kanban_create',
  title: 'Create ticket',
  description: 'Create a ticket on a kanban board. Returns its id (#n) and version.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const ticket = await createTicket(
      opened.store,
      {
        board: args.board,
        title: args.title,
        description: args.description,
        status: args.status,
        priority: args.priority,
        assignee: args.assignee ?? null,
        labels: args.labels,
      },
      actorOf(ctx),
    );
    return ok(`Created ${formatTicketHeader(ticket)}`, { structured: { ticket } });
  },
});
