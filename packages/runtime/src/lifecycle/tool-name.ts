import type { ToolPool } from '../contracts.js';
import { resolveToolName } from '../providers/resolve-tool-name.js';

/**
 * The pool name a model's call refers to: the exact name, a declared alias or a compatibility
 * name (`Read`, `Bash`, …), else a case-insensitive match. Unknown names come back as they are.
 */
export function normalizeToolName(name: string, pool: ToolPool): string {
  const resolved = resolveToolName(name, pool);
  if (resolved !== undefined) return resolved;
  const lower = name.toLowerCase();
  for (const entry of pool.executables.values()) {
    if (
      entry.name.toLowerCase() === lower ||
      entry.tool.aliases?.some((alias) => alias.toLowerCase() === lower)
    )
      return entry.name;
  }
  return name;
}
