import { definePlugin } from '@quiver/types';
import { replTool } from './repl-tool.js';

export const REPL_PLUGIN_VERSION = '0.1.0';

/** Registers the repl tool: scripts that call the session's other tools from a QuickJS sandbox. */
export const replPlugin = definePlugin({
  id: 'tools-repl',
  apiVersion: 1,
  version: REPL_PLUGIN_VERSION,
  description: 'A repl tool: the model scripts its tool calls in a WebAssembly sandbox.',
  register(ctx) {
    ctx.registerTool(replTool);
  },
});
