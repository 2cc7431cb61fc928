/**
 * Capability names prompts written for other agents use, mapped to the tools that do the same
 * here, best first. A tool's own `aliases` are added to these at lookup time.
 */
export const TOOL_NAME_COMPATIBILITY: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Edit: ['edit_file', 'apply_patch'],
  MultiEdit: ['multi_edit', 'apply_patch'],
  Write: ['write_file'],
  Grep: ['grep', 'search_code'],
  Glob: ['glob', 'find_files'],
  Bash: ['terminal'],
  Shell: ['terminal'],
  ToolSearch: ['tool_search'],
};

export interface NamedTool {
  name: string;
  aliases?: readonly string[] | undefined;
}

/** True when a requested name (exact, `*` glob, alias or compatibility name) refers to `tool`. */
export function nameRefersTo(
  requested: string,
  tool: NamedTool,
  match: (pattern: string, name: string) => boolean,
): boolean {
  if (match(requested, tool.name)) return true;
  if (tool.aliases?.includes(requested)) return true;
  return TOOL_NAME_COMPATIBILITY[requested]?.includes(tool.name) === true;
}
