import type { PoolDiagnostic, PoolTool } from '../contracts.js';
import { nameRefersTo } from '../providers/tool-name-compatibility.js';
import { matchesNamePattern } from './name-pattern.js';
import type { StageResult } from './stage-result.js';

export interface KnownTool {
  name: string;
  aliases?: readonly string[] | undefined;
}

export interface SessionFilterOptions {
  /** The personality's built-in toolset (names or toolset groups); undefined = every built-in. */
  toolset?: readonly string[] | undefined;
  availableTools?: readonly string[] | undefined;
  excludedTools?: readonly string[] | undefined;
  /** Every tool name assembly has seen, kept or not, with aliases: names outside it are reported. */
  knownTools: readonly KnownTool[] | (() => readonly KnownTool[]);
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
    nameRefersTo(requested, { name: tool.name, aliases: tool.tool.aliases }, matchesNamePattern);
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
  if (options.toolset || options.availableTools || options.excludedTools) {
    const known = typeof options.knownTools === 'function' ? options.knownTools() : options.knownTools;
    result.diagnostics.push(
      ...unknownNames('toolset', options.toolset, known, tools),
      ...unknownNames('availableTools', options.availableTools, known),
      ...unknownNames('excludedTools', options.excludedTools, known),
    );
  }
  return result;
}

function unknownNames(
  setting: string,
  names: readonly string[] | undefined,
  known: readonly KnownTool[],
  groupsFrom: readonly PoolTool[] = [],
): PoolDiagnostic[] {
  if (!names) return [];
  const groups = new Set(groupsFrom.map((tool) => tool.tool.toolset).filter((group) => group !== undefined));
  return names
    .filter(
      (name) => !groups.has(name) && !known.some((tool) => nameRefersTo(name, tool, matchesNamePattern)),
    )
    .map((name) => ({
      level: 'info' as const,
      code: 'unknown_tool_name',
      message: `${setting} names "${name}", which matches no tool.`,
      tool: name,
    }));
}
