import { definePlugin } from '@quiver/types';
import { kanbanTools } from './kanban-tools.js';
import { kanbanListReducer } from './list-reducer.js';

export const KANBAN_PLUGIN_VERSION = '0.1.0';

/** Registers the kanban tools and the reducer that summarizes long `kanban_list` output. */
export const kanbanPlugin = definePlugin({
  id: 'tools-kanban',
  apiVersion: 1,
  version: KANBAN_PLUGIN_VERSION,
  description: 'A durable kanban board per project, with optimistic concurrency.',
  register(ctx) {
    for (const tool of kanbanTools) ctx.registerTool(tool);
    ctx.registerReducer(kanbanListReducer);
  },
});
