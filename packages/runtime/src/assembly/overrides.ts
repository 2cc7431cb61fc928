import { QuiverError, type RegisteredTool } from '@quiver/types';
import type { PoolTool } from '../contracts.js';
import { builtInCounterpart, judgeAsBuiltIn } from './judged-as-built-in.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 2: an external tool that shares a built-in's name must say `overridesBuiltInTool`. With
 * it, the external callback and definition take the built-in's place (and its position in the
 * stable prefix); without it the assembly fails, since a silent override is a bug. Every
 * external tool that answers to a built-in's name or alias — a replacement, or a client's own
 * `Read` — is judged as that built-in: its permission kind and subjects, its rules, and for file
 * tools the workspace boundary (`registered` holds the built-ins, enabled or not).
 */
export function applyOverrides(
  tools: readonly PoolTool[],
  overriding: ReadonlySet<string>,
  registered: readonly RegisteredTool[] = [],
): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  if (!tools.some((tool) => tool.source === 'external')) {
    result.kept = [...tools];
    return result;
  }
  const judged = (tool: PoolTool): PoolTool => {
    const counterpart = builtInCounterpart(tool.name, registered);
    return counterpart === undefined ? tool : judgeAsBuiltIn(tool, counterpart);
  };
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
    const counterpart = registered.find((entry) => entry.tool === builtIn.tool);
    const replacement = { ...builtIn, tool: tool.tool, parameters: tool.parameters };
    replaced.set(
      tool.name,
      counterpart === undefined ? judged(replacement) : judgeAsBuiltIn(replacement, counterpart),
    );
    result.diagnostics.push({
      level: 'info',
      code: 'builtin_overridden',
      message: `External tool "${tool.name}" overrides the built-in tool from ${owner}.`,
      tool: tool.name,
    });
  }
  for (const tool of tools) {
    if (tool.source === 'external' && replaced.has(tool.name)) continue;
    result.kept.push(replaced.get(tool.name) ?? (tool.source === 'external' ? judged(tool) : tool));
  }
  return result;
}
