import { definePlugin, type Tool } from '@quiver/types';
import {
  terminalListTool,
  terminalReadTool,
  terminalStartTool,
  terminalStopTool,
  terminalWriteTool,
} from './background/background-tools.js';
import { terminalReducer } from './terminal-reducer.js';
import { terminalTool } from './terminal-tool.js';

/** Every tool of this package: `terminal` and the five background-shell tools. */
export const terminalTools: readonly Tool[] = [
  terminalTool,
  terminalStartTool,
  terminalReadTool,
  terminalWriteTool,
  terminalStopTool,
  terminalListTool,
];

/**
 * Registers the terminal tools and the `terminal` reducer. The `process` capability they need
 * comes from the host (see createProcessBackend), which knows the workspace roots and sandbox mode.
 */
export const terminalPlugin = definePlugin({
  id: 'tools-terminal',
  apiVersion: 1,
  version: '0.1.0',
  description: 'A bounded shell tool, background shells, and a reducer for command output.',
  register(ctx) {
    for (const tool of terminalTools) ctx.registerTool(tool);
    ctx.registerReducer(terminalReducer);
  },
});
