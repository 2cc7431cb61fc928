import { QuiverError } from '@quiver/types';
import type { PoolTool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 2: an external tool that shares a built-in's name must say `overridesBuiltInTool`. With
 * it, the external callback and definition take the built-in's place (and its position in the
 * stable prefix); without it the assembly fails, since a silent override is a bug.
 */
export function applyOverrides(tools: readonly PoolTool[], overriding: ReadonlySet<string>): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  if (!tools.some((tool) => tool.source === 'external')) {
    result.kept = [...tools];
    return result;
  }
  const builtIns = new Map<string, PoolTool>();
  for (const tool of tools) if (tool.source !== 'external') builtIns.set(tool.name, tool);
  const replaced = new Map<string, PoolTool>();
  for (const tool of tools) {
    if (tool.source !== 'external') continue;
    const builtIn = builtIns.get(tool.name);
    if (!builtIn) continue;
    const owner = builtIn.mcpServer
      ? `MCP server "${builtIn.mcpServer}"`
      : builtIn.pluginId
        ? `plugin "${builtIn.pluginId}"`
        : 'the host';
    if (!overriding.has(tool.name)) {
      throw new QuiverError(
        'assembly_failed',
        `External tool "${tool.name}" has the same name as the built-in tool "${builtIn.name}" from ${owner}.`,
        {
          fix: `Set overridesBuiltInTool: true on the external tool "${tool.name}" to replace the built-in, or give it another name.`,
          details: {
            external: tool.name,
            builtIn: builtIn.name,
            pluginId: builtIn.pluginId,
            mcpServer: builtIn.mcpServer,
          },
        },
      );
    }
    replaced.set(tool.name, { ...builtIn, tool: tool.tool, parameters: tool.parameters });
    result.diagnostics.push({
      level: 'info',
      code: 'builtin_overridden',
      message: `External tool "${tool.name}" overrides the built-in tool from ${owner}.`,
      tool: tool.name,
    });
  }
  for (const tool of tools) {
    if (tool.source === 'external' && replaced.has(tool.name)) continue;
    result.kept.push(replaced.get(tool.name) ?? tool);
  }
  return result;
}
