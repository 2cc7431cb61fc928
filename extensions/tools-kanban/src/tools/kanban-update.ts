import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { KANBAN_CAPABILITIES, openBoard } from '../board-database.js';
import { formatTicketHeader } from '../format-ticket.js';
import { updateTicket } from '../ticket-writes.js';
import { labelsField, priorityField, ticketIdField, versionField } from './fields.js';

const input = z.object({
  id: ticketIdField,
  version: versionField,
  title: z.string().trim().min(1).max(200).optional().describe('New title.'),
  description: z.string().max(20_000).optional().describe('New description (replaces the old one).'),
  priority: priorityField.optional(),
  assignee: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe('New assignee; null to unassign.'),
  labels: labelsField.optional().describe('Replace all labels with these.'),
  addLabels: labelsField.optional().describe('Labels to add, keeping the others.'),
  removeLabels: labelsField.optional().describe('Labels to remove.'),
});

export const kanbanUpdate = defineTool({
  name: 'kanban_update',
  title: 'Update ticket',
  description:
    'Change a ticket’s title, description, priority, assignee or labels. Pass the version you read to avoid overwriting someone else’s change. Use kanban_move for status.',
  input,
  capabilities: KANBAN_CAPABILITIES,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async execute(args, ctx) {
    const opened = await openBoard(ctx);
    if (!opened.ok) return opened;
    const { id, version, ...changes } = args;
    if (Object.values(changes).every((value) => value === undefined)) {
      return fail(
        'input_invalid',
        'Nothing to update: pass at least one of title, description, priority, assignee, labels, addLabels, removeLabels.',
      );
    }
    const outcome = await updateTicket(opened.store, id, version, changes);
    if (!outcome.ok) return outcome;
    const { ticket, changed } = outcome.value;
    const summary = changed.length === 0 ? 'No change to' : `Updated ${changed.join(', ')} of`;
    return ok(`${summary} ${formatTicketHeader(ticket)}`, { structured: { ticket, changed } });
  },
});
