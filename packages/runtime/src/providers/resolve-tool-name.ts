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
