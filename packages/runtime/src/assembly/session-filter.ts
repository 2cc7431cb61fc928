import { type NamedTool, namesTool, type ToolNameCatalog } from '../agents/tool-name-resolver.js';
import type { PoolTool } from '../contracts.js';
import { toolNameDiagnostics } from './name-diagnostics.js';
import type { StageResult } from './stage-result.js';

export interface SessionFilterOptions {
  /** The personality's built-in toolset (names or toolset groups); undefined = every built-in. */
  toolset?: readonly string[] | undefined;
  availableTools?: readonly string[] | undefined;
  excludedTools?: readonly string[] | undefined;
  /** Every tool assembly has seen, kept or not, with aliases: names outside it are reported. */
  knownTools: readonly NamedTool[] | (() => readonly NamedTool[]);
  /** MCP servers the personality enables: names of their tools are known before the tools are listed. */
  mcpServers?: readonly string[] | undefined;
  /** The catalog to check names against, when the caller has one (instead of knownTools and mcpServers). */
  catalog?: (() => ToolNameCatalog) | undefined;
}

/**
 * Stage 5: the personality toolset gates built-ins (`alwaysInclude` bypasses it); the session
 * allowlist keeps only what it names and wins over the exclude list. Names that refer to no tool
 * at all become diagnostics instead of being ignored.
 */
export function applySessionFilter(tools: readonly PoolTool[], options: SessionFilterOptions): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  if (!options.toolset && !options.availableTools && !options.excludedTools) {
    result.kept = [...tools];
    return result;
  }
  const refers = (requested: string, tool: PoolTool) =>
    namesTool(requested, {
      name: tool.name,
      aliases: tool.tool.aliases,
      pluginId: tool.pluginId,
      mcpServer: tool.mcpServer,
    });
  for (const tool of tools) {
    if (options.toolset && tool.source === 'builtin' && !tool.tool.alwaysInclude) {
      const inToolset = options.toolset.some((entry) => refers(entry, tool) || entry === tool.tool.toolset);
      if (!inToolset) {
        result.removed.push({
          name: tool.name,
          reason: { stage: 'session_filter', rule: 'toolset', reason: 'not in the personality toolset' },
        });
        continue;
      }
    }
    const allowedBy = options.availableTools?.find((entry) => refers(entry, tool));
    if (options.availableTools && allowedBy === undefined) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'session_filter',
          rule: 'availableTools',
          reason: 'not in the session allowlist (availableTools)',
        },
      });
      continue;
    }
    const excludedBy = options.excludedTools?.find((entry) => refers(entry, tool));
    if (excludedBy !== undefined && allowedBy === undefined) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'session_filter',
          rule: `excludedTools: ${excludedBy}`,
          reason: `excluded by the session option excludedTools ("${excludedBy}")`,
        },
      });
      continue;
    }
    result.kept.push(tool);
  }
  const catalog = () => {
    if (options.catalog) return options.catalog();
    const known = typeof options.knownTools === 'function' ? options.knownTools() : options.knownTools;
    return { tools: known, mcpServers: options.mcpServers ?? [] };
  };
  // Toolset entries may also be toolset groups, which are no tool names.
  const groups = options.toolset ? new Set(tools.map((tool) => tool.tool.toolset)) : undefined;
  result.diagnostics.push(
    ...toolNameDiagnostics(
      [
        { setting: 'toolset', names: options.toolset?.filter((name) => !groups?.has(name)) },
        { setting: 'availableTools', names: options.availableTools },
        { setting: 'excludedTools', names: options.excludedTools },
      ],
      catalog,
    ),
  );
  return result;
}
