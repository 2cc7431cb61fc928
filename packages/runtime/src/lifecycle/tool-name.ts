import type { ToolPool } from '../contracts.js';
import { resolveBuiltInToolNameIgnoringCase, resolveToolName } from '../providers/resolve-tool-name.js';

/**
 * The pool name a model's call refers to: the exact name, a declared alias or a compatibility
 * name (`Read`, `Bash`, …), else a built-in tool matched ignoring case. Unknown names come back
 * as they are.
 */
export function normalizeToolName(name: string, pool: ToolPool): string {
  return resolveToolName(name, pool) ?? resolveBuiltInToolNameIgnoringCase(name, pool) ?? name;
}
