import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { LINK_TYPES } from '../ticket-model.js';
import { changeLink } from '../ticket-relations.js';
import { ticketIdField } from './fields.js';

const input = z.object({
  from: ticketIdField.describe('The ticket the link starts from.'),
  to: ticketIdField.describe('The ticket the link points to.'),
  type: z
    .enum(LINK_TYPES)
    .describe('from blocks to; from relates_to to; from duplicates to; from parent_of to (to is a subtask).'),
  remove: z.boolean().default(false).describe('Remove this link instead of adding it.'),
});

export const kanbanLink = defineTool({
  name: 'kanban_link',
  title: 'Link tickets',
  description: 'Add or remove a typed link between two tickets: blocks, relates_to, duplicates or parent_of.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const outcome = await changeLink(opened.store, args.from, args.to, args.type, args.remove);
    if (!outcome.ok) return outcome;
    const { from, to, type, changed } = outcome.value;
    const relation = `#${from.id} ${type.replace('_', ' ')} #${to.id}`;
    const text = args.remove
      ? changed
        ? `Removed link: ${relation}.`
        : `There was no link ${relation}; nothing changed.`
      : changed
        ? `Linked: ${relation} (${from.title} → ${to.title}).`
        : `Already linked: ${relation}.`;
    return ok(text, { structured: { from: from.id, to: to.id, type, removed: args.remove, changed } });
  },
});
