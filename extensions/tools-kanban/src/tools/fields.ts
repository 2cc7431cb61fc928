import { z } from 'zod';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../ticket-model.js';

export const ticketIdField = z
  .number()
  .int()
  .positive()
  .describe('Ticket id: the number after # (12 for #12).');

export const versionField = z
  .number()
  .int()
  .positive()
  .optional()
  .describe(
    'The ticket version you last read. When given and the ticket changed since, the call fails with stale_write instead of overwriting the other change.',
  );

export const boardField = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe('Board name; each project can hold several boards.');

export const statusField = z.enum(TICKET_STATUSES).describe('Ticket status.');

export const priorityField = z.enum(TICKET_PRIORITIES).describe('Priority: low, medium, high or urgent.');

export const labelsField = z
  .array(z.string().trim().min(1).max(40))
  .max(20)
  .describe('Short labels such as "bug" or "frontend".');
