import { ok, type ToolResult, type ToolResultReducer } from '@quiver/types';
import { formatTicketLine } from './format-ticket.js';
import {
  BOARD_STATUS_ORDER,
  isOpenStatus,
  priorityRank,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type TicketSummary,
} from './ticket-model.js';

/** Lists up to this many tickets pass through whole. */
export const KANBAN_LIST_FULL_LIMIT = 10;
const TOP_OPEN_TICKETS = 5;

function isTicketSummary(value: unknown): value is TicketSummary {
  if (typeof value !== 'object' || value === null) return false;
  const ticket = value as Record<string, unknown>;
  return (
    typeof ticket.id === 'number' &&
    typeof ticket.title === 'string' &&
    typeof ticket.updatedAt === 'string' &&
    (TICKET_STATUSES as readonly unknown[]).includes(ticket.status) &&
    (TICKET_PRIORITIES as readonly unknown[]).includes(ticket.priority)
  );
}

function ticketsOf(structured: unknown): TicketSummary[] | undefined {
  if (typeof structured !== 'object' || structured === null) return undefined;
  const tickets = (structured as { tickets?: unknown }).tickets;
  if (!Array.isArray(tickets) || !tickets.every(isTicketSummary)) return undefined;
  return tickets;
}

/** Highest priority first, then the most recently updated, then the newest ticket. */
export function compareByUrgency(a: TicketSummary, b: TicketSummary): number {
  return (
    priorityRank(b.priority) - priorityRank(a.priority) ||
    b.updatedAt.localeCompare(a.updatedAt) ||
    b.id - a.id
  );
}

function reduceKanbanList(result: ToolResult): ToolResult {
  if (!result.ok) return result;
  const tickets = ticketsOf(result.structured);
  if (!tickets || tickets.length <= KANBAN_LIST_FULL_LIMIT) return result;
  const heading = result.value.split('\n', 1)[0] ?? `${tickets.length} tickets`;
  const counts = BOARD_STATUS_ORDER.map(
    (status) => [status, tickets.filter((ticket) => ticket.status === status).length] as const,
  ).filter(([, count]) => count > 0);
  const open = tickets.filter((ticket) => isOpenStatus(ticket.status)).sort(compareByUrgency);
  const top = open.slice(0, TOP_OPEN_TICKETS);
  const lines = [
    `${heading} — summarized.`,
    `By status: ${counts.map(([status, count]) => `${status} ${count}`).join(' · ')}`,
  ];
  if (top.length > 0) {
    lines.push(`Top ${top.length} open tickets by priority, then most recently updated:`);
    lines.push(...top.map((ticket) => `  ${formatTicketLine(ticket)}`));
  } else {
    lines.push('No open tickets.');
  }
  const hidden = tickets.length - top.length;
  lines.push(
    `${hidden} more not shown: filter kanban_list by status, assignee, label or text, or open one with kanban_get.`,
  );
  const value = lines.join('\n');
  if (value.length >= result.value.length) return result;
  return ok(value, {
    structured: result.structured,
    ...(result.attachments ? { attachments: result.attachments } : {}),
  });
}

/** Shrinks long `kanban_list` output to counts by status and the most urgent open tickets. */
export const kanbanListReducer: ToolResultReducer = {
  tool: 'kanban_list',
  reduce: reduceKanbanList,
};
