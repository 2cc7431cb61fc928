import { z } from 'zod';
import type { PoolTool } from '../contracts.js';
import { createToolSearchTool } from '../search/tool-search-tool.js';
import { estimateTokens, toDefinition } from './definitions.js';

/** Room kept for tools a host lists next to tool_search (`quiver serve`'s call_tool). */
const HOST_TOOLS_RESERVE_TOKENS = 250;

let searchToolTokens: number | undefined;

/** The estimated tokens of tool_search's own definition, computed once. */
function toolSearchTokens(): number {
  if (searchToolTokens === undefined) {
    const tool = createToolSearchTool({ definitions: () => [] });
    searchToolTokens = estimateTokens([
      {
        name: tool.name,
        description: tool.description,
        parameters: z.toJSONSchema(tool.input) as Record<string, unknown>,
      },
    ]);
  }
  return searchToolTokens;
}

/**
 * The found tools (names tool_search returned, oldest first) shown in full: the most recently
 * found first, while the listed definitions, tool_search included, stay within `maxTokens`. The
 * others stay deferred and callable, so a long session's searches never grow the list without
 * bound.
 */
export function foundToolsWithinBudget(
  tools: readonly PoolTool[],
  found: ReadonlySet<string>,
  isListed: (tool: PoolTool) => boolean,
  maxTokens: number,
): Set<string> {
  const shown = new Set<string>();
  if (found.size === 0) return shown;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.filter(isListed).map(toDefinition);
  let room = maxTokens - estimateTokens(listed) - toolSearchTokens() - HOST_TOOLS_RESERVE_TOKENS;
  for (const name of [...found].reverse()) {
    const tool = byName.get(name);
    if (tool === undefined || isListed(tool)) continue;
    const cost = estimateTokens([toDefinition(tool)]);
    if (cost > room) continue;
    room -= cost;
    shown.add(name);
  }
  return shown;
}
