import type { ToolPool } from '../contracts.js';
import { compatibleToolNames } from './tool-name-compatibility.js';

/**
 * The pool tool a name refers to: the tool itself, a tool that lists it in `aliases`, or the
 * first pool tool of its compatibility entry (Read → read_file, Bash → terminal, …).
 */
export function resolveToolName(name: string, pool: Pick<ToolPool, 'executables'>): string | undefined {
  if (pool.executables.has(name)) return name;
  for (const tool of pool.executables.values()) if (tool.tool.aliases?.includes(name)) return tool.name;
  return compatibleToolNames(name).find((candidate) => pool.executables.has(candidate));
}

/**
 * The built-in tool a name matches when case is ignored (name or alias). Server and external
 * tools never match this way: their names are chosen by someone else, so `MCP__X__READ_FILE`
 * could be steered onto a different server tool such as `mcp__x__Read_File`.
 */
export function resolveBuiltInToolNameIgnoringCase(
  name: string,
  pool: Pick<ToolPool, 'executables'>,
): string | undefined {
  const lower = name.toLowerCase();
  for (const entry of pool.executables.values()) {
    if (entry.source !== 'builtin') continue;
    if (
      entry.name.toLowerCase() === lower ||
      entry.tool.aliases?.some((alias) => alias.toLowerCase() === lower)
    )
      return entry.name;
  }
  return undefined;
}
