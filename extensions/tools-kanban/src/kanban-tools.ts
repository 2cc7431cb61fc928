import type { Tool } from '@quiver/types';
import { kanbanArchive } from './tools/kanban-archive.js';
import { kanbanComment } from './tools/kanban-comment.js';
import { kanbanCreate } from './tools/kanban-create.js';
import { kanbanGet } from './tools/kanban-get.js';
import { kanbanLink } from './tools/kanban-link.js';
import { kanbanList } from './tools/kanban-list.js';
import { kanbanMove } from './tools/kanban-move.js';
import { kanbanUpdate } from './tools/kanban-update.js';

export const kanbanTools: readonly Tool[] = [
  kanbanCreate,
  kanbanList,
  kanbanGet,
  kanbanUpdate,
  kanbanMove,
  kanbanComment,
  kanbanLink,
  kanbanArchive,
];
