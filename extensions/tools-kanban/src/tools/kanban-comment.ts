import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { actorOf, KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { addComment } from '../ticket-relations.js';
import { ticketIdField } from './fields.js';

const input = z.object({
  id: ticketIdField,
  body: z.string().trim().min(1).max(10_000).describe('The comment text.'),
  author: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Who writes it; defaults to the calling agent.'),
});

export const kanbanComment = defineTool({
  name: 'kanban_comment',
  title: 'Comment on ticket',
  description:
    'Add a comment to a ticket (progress notes, findings, questions). Comments do not change the ticket version.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const outcome = await addComment(opened.store, args.id, args.author ?? actorOf(ctx), args.body);
    if (!outcome.ok) return outcome;
    return ok(`Commented on #${args.id} as ${outcome.value.author}.`, {
      structured: { ticketId: args.id, comment: outcome.value },
    });
  },
});
