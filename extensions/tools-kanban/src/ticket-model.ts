export const TICKET_STATUSES = ['todo', 'in_progress', 'blocked', 'done', 'archived'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Named levels rather than numbers: a model reads `urgent` correctly, `0` is ambiguous. */
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const LINK_TYPES = ['blocks', 'relates_to', 'duplicates', 'parent_of'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** How a link reads from the other ticket's side. */
export const INVERSE_LINK_LABELS: Record<LinkType, string> = {
  blocks: 'blocked by',
  relates_to: 'relates to',
  duplicates: 'duplicated by',
  parent_of: 'child of',
};

/**
 * Allowed moves. `archived` is terminal for moves: only `kanban_archive` with `restore: true`
 * brings a ticket back, to the status it had before archiving. A blocked ticket must be
 * unblocked before it can be done, so that "done" never hides an unresolved blocker.
 */
export const STATUS_TRANSITIONS: Readonly<Record<TicketStatus, readonly TicketStatus[]>> = {
  todo: ['in_progress', 'blocked', 'done', 'archived'],
  in_progress: ['todo', 'blocked', 'done', 'archived'],
  blocked: ['todo', 'in_progress', 'archived'],
  done: ['todo', 'in_progress', 'archived'],
  archived: [],
};

/** The order a board is read in: work under way first, finished work last. */
export const BOARD_STATUS_ORDER: readonly TicketStatus[] = [
  'in_progress',
  'blocked',
  'todo',
  'done',
  'archived',
];

export const OPEN_STATUSES: readonly TicketStatus[] = ['todo', 'in_progress', 'blocked'];

export function isOpenStatus(status: TicketStatus): boolean {
  return OPEN_STATUSES.includes(status);
}

export function priorityRank(priority: TicketPriority): number {
  return TICKET_PRIORITIES.indexOf(priority);
}

export interface TicketSummary {
  id: number;
  board: string;
  title: string;
  status: TicketStatus;
  priority: TicketPriority;
  assignee: string | null;
  labels: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface Ticket extends TicketSummary {
  description: string;
}

export interface TicketComment {
  id: number;
  author: string;
  body: string;
  createdAt: string;
}

export interface TicketLink {
  type: LinkType;
  /** `outgoing`: this ticket `type` the other; `incoming`: the other ticket `type` this one. */
  direction: 'outgoing' | 'incoming';
  ticketId: number;
  title: string;
  status: TicketStatus;
}

export interface StatusChange {
  from: TicketStatus | null;
  to: TicketStatus;
  at: string;
  by: string;
  note: string | null;
}

export interface TicketDetails extends Ticket {
  links: TicketLink[];
  comments: TicketComment[];
  history: StatusChange[];
}
