/**
 * Every tool name this plugin can register, under any configuration (a superset). A host that runs
 * one named tool (`quiver call`) reads this without importing the plugin and leaves the plugin out
 * when none of these names is the tool: a name missing here would hide the tool, which
 * packages/wiring/test/declared-tools.test.ts checks against the loaded plugin.
 * This module imports nothing.
 */
export const DECLARED_TOOLS: readonly string[] = [
  'apply_patch',
  'edit_file',
  'file_search',
  'grep_search',
  'list_dir',
  'multi_edit',
  'read_file',
  'write_file',
];
