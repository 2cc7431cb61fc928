import type { UnloadedTool } from '@quiver/types';

/**
 * Every tool this plugin can register, under any configuration (a superset), with the aliases and
 * permission kind each has when registered. A host that runs one named tool (`quiver call`) reads
 * this without importing the plugin: it leaves the plugin out when none of these names is the
 * tool, and still reads rules and names written for these tools as when the plugin loads. A tool
 * missing here, or described differently, is caught by packages/wiring/test/declared-tools.test.ts.
 * This module imports nothing at run time.
 */
export const PLUGIN_ID = 'tools-memory';

export const DECLARED_TOOLS: readonly Omit<UnloadedTool, 'pluginId'>[] = [
  { name: 'memory_forget' },
  { name: 'memory_list' },
  { name: 'memory_save' },
  { name: 'memory_search' },
];
