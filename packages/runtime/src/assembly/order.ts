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
  for (const tool of tools) (tool.source === 'builtin' ? builtIns : tool.source === 'mcp' ? mcp : external).push(tool);
  // Array.prototype.sort is stable, so equal names keep their candidate order.
  builtIns.sort(byName);
  mcp.sort(byName);
  const taken = new Set<string>();
  const clash = (tool: PoolTool) =>
    result.diagnostics.push({
      level: 'warning',
      code: 'name_clash',
      message: `Two tools are named "${tool.name}"; the ${tool.source} one is dropped in favour of the one that sorts first (built-ins, then MCP, then external).`,
      tool: tool.name,
    });
  for (const group of [builtIns, mcp]) {
    let previous: string | undefined;
    for (const tool of group) {
      // Within a sorted group duplicates are neighbours; across groups only the built-in names can clash.
      if (tool.name === previous || (group === mcp && taken.has(tool.name))) {
        clash(tool);
        continue;
      }
      previous = tool.name;
      if (group === builtIns) taken.add(tool.name);
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

function byName(a: PoolTool, b: PoolTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Length of the built-in prefix of an ordered list. */
export function builtInPrefixLength(tools: readonly PoolTool[]): number {
  let length = 0;
  while (length < tools.length && tools[length]?.source === 'builtin') length += 1;
  return length;
}
