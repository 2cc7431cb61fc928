// Public surface of @quiver/tools-kanban.
import { kanbanPlugin } from './kanban-plugin.js';

export { KANBAN_PLUGIN_VERSION, kanbanPlugin } from './kanban-plugin.js';
export { kanbanTools } from './kanban-tools.js';
export { KANBAN_LIST_FULL_LIMIT, kanbanListReducer } from './list-reducer.js';
export { KANBAN_DATABASE, KANBAN_MIGRATIONS } from './schema.js';
export type {
  LinkType,
  StatusChange,
  Ticket,
  TicketComment,
  TicketDetails,
  TicketLink,
  TicketPriority,
  TicketStatus,
  TicketSummary,
} from './ticket-model.js';
export { LINK_TYPES, STATUS_TRANSITIONS, TICKET_PRIORITIES, TICKET_STATUSES } from './ticket-model.js';
export { kanbanArchive } from './tools/kanban-archive.js';
export { kanbanComment } from './tools/kanban-comment.js';
export { kanbanCreate } from './tools/kanban-create.js';
export { kanbanGet } from './tools/kanban-get.js';
export { kanbanLink } from './tools/kanban-link.js';
export { kanbanList } from './tools/kanban-list.js';
export { kanbanMove } from './tools/kanban-move.js';
export { kanbanUpdate } from './tools/kanban-update.js';

export default kanbanPlugin;
