import {
  BOARD_STATUS_ORDER,
  INVERSE_LINK_LABELS,
  type Ticket,
  type TicketDetails,
  type TicketSummary,
} from './ticket-model.js';

/** `2026-11-22T04:01:02.123Z` → `2026-11-22 04:01`: minutes are enough to read a board. */
export function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** One line per ticket, the same fields `structured.tickets` carries. */
export function formatTicketLine(ticket: TicketSummary): string {
  const details = [
    ticket.assignee ? `@${ticket.assignee}` : 'unassigned',
    ...(ticket.labels.length > 0 ? [ticket.labels.join(', ')] : []),
    `v${ticket.version}`,
    `updated ${shortTime(ticket.updatedAt)}`,
  ];
  return `#${ticket.id} [${ticket.status}] (${ticket.priority}) ${ticket.title} — ${details.join(' · ')}`;
}

export function formatTicketHeader(ticket: Ticket): string {
  const facts = [
    `board ${ticket.board}`,
    `status ${ticket.status}`,
    `priority ${ticket.priority}`,
    `assignee ${ticket.assignee ?? 'none'}`,
    `labels ${ticket.labels.length > 0 ? ticket.labels.join(', ') : 'none'}`,
    `version ${ticket.version}`,
  ];
  return `#${ticket.id} ${ticket.title}\n${facts.join(' · ')}`;
}

export function formatTicketDetails(ticket: TicketDetails): string {
  const sections = [
    `${formatTicketHeader(ticket)}\ncreated ${shortTime(ticket.createdAt)} · updated ${shortTime(ticket.updatedAt)}`,
  ];
  if (ticket.description) sections.push(ticket.description);
  if (ticket.links.length > 0) {
    const lines = ticket.links.map((link) => {
      const relation =
        link.direction === 'outgoing' ? link.type.replace('_', ' ') : INVERSE_LINK_LABELS[link.type];
      return `  ${relation} #${link.ticketId} ${link.title} [${link.status}]`;
    });
    sections.push(`Links:\n${lines.join('\n')}`);
  }
  if (ticket.comments.length > 0) {
    const lines = ticket.comments.map(
      (comment) =>
        `  ${shortTime(comment.createdAt)} ${comment.author}: ${comment.body.replace(/\n/g, '\n    ')}`,
    );
    sections.push(`Comments (${ticket.comments.length}):\n${lines.join('\n')}`);
  }
  const history = ticket.history.map((change) => {
    const what = change.from === null ? `created as ${change.to}` : `${change.from} → ${change.to}`;
    return `  ${shortTime(change.at)} ${what} by ${change.by}${change.note ? `: ${change.note}` : ''}`;
  });
  sections.push(`History:\n${history.join('\n')}`);
  return sections.join('\n\n');
}

/** Tickets grouped under their status, in the order the list query returns them. */
export function formatTicketList(tickets: readonly TicketSummary[], heading: string): string {
  if (tickets.length === 0) return `${heading}\nNo tickets match.`;
  const blocks: string[] = [heading];
  for (const status of BOARD_STATUS_ORDER) {
    const group = tickets.filter((ticket) => ticket.status === status);
    if (group.length === 0) continue;
    blocks.push(
      `${status} (${group.length}):\n${group.map((ticket) => `  ${formatTicketLine(ticket)}`).join('\n')}`,
    );
  }
  return blocks.join('\n\n');
}
