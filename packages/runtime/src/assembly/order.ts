import type { PoolTool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 7: built-ins sorted by name as a contiguous prefix, then MCP tools sorted, then external
 * tools in the order the client gave them. MCP tools never sort into the built-in prefix, so a
 * server coming or going leaves the prompt-cache prefix intact. On a name clash the built-in wins.
 */
export function orderTools(tools: readonly PoolTool[]): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const builtIns: PoolTool[] = [];
  const mcp: PoolTool[] = [];
  const external: PoolTool[] = [];
  for (const tool of tools)
    (tool.source === 'builtin' ? builtIns : tool.source === 'mcp' ? mcp : external).push(tool);
  const sortedBuiltIns = sortByName(builtIns, 'builtin');
  const sortedMcp = sortByName(mcp, 'mcp');
  const taken = new Set<string>();
  const clash = (tool: PoolTool) =>
    result.diagnostics.push({
      level: 'warning',
      code: 'name_clash',
      message: `Two tools are named "${tool.name}"; the ${tool.source} one is dropped in favour of the one that sorts first (built-ins, then MCP, then external).`,
      tool: tool.name,
    });
  for (const group of [sortedBuiltIns, sortedMcp]) {
    let previous: string | undefined;
    for (const tool of group) {
      // Within a sorted group duplicates are neighbours; across groups only the built-in names can clash.
      if (tool.name === previous || (group === sortedMcp && taken.has(tool.name))) {
        clash(tool);
        continue;
      }
      previous = tool.name;
      if (group === sortedBuiltIns) taken.add(tool.name);
      result.kept.push(tool);
    }
  }
  if (external.length > 0) {
    const kept = new Set(result.kept.map((tool) => tool.name));
    for (const tool of external) {
      if (kept.has(tool.name)) {
        clash(tool);
        continue;
      }
      kept.add(tool.name);
      result.kept.push(tool);
    }
  }
  return result;
}

interface SortMemo {
  names: string[];
  order: number[];
}

let sortMemos: Map<string, SortMemo> | undefined;

/**
 * Sorted by name, stable. Reassembling the same pool is the common case (every registry change
 * or option update), so the last permutation per group is remembered and reused when the input
 * names are the same, in the same order: an O(n) check instead of an O(n log n) string sort.
 */
function sortByName(group: readonly PoolTool[], slot: string): PoolTool[] {
  sortMemos ??= new Map();
  const memo = sortMemos.get(slot);
  if (
    memo &&
    memo.names.length === group.length &&
    group.every((tool, index) => tool.name === memo.names[index])
  ) {
    return memo.order.map((index) => group[index] as PoolTool);
  }
  const names = group.map((tool) => tool.name);
  const order = names.map((_, index) => index);
  order.sort((a, b) => {
    const left = names[a] as string;
    const right = names[b] as string;
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  sortMemos.set(slot, { names, order });
  return order.map((index) => group[index] as PoolTool);
}

/** Length of the built-in prefix of an ordered list. */
export function builtInPrefixLength(tools: readonly PoolTool[]): number {
  let length = 0;
  while (length < tools.length && tools[length]?.source === 'builtin') length += 1;
  return length;
}
