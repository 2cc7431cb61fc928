import { matchesNamePattern, type RegisteredTool } from '@quiver/types';
import type { ExternalToolDefinition, PoolTool, SessionPolicy } from '../contracts.js';
import { externalParameters, validateExternalTools, wrapExternalTool } from './external-tools.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 1: built-ins of enabled plugins (tools registered without a plugin are the host's own
 * and always candidates), MCP tools of enabled servers after each server's include/exclude,
 * and the session's external tools.
 */
export function collectCandidates(
  registered: readonly RegisteredTool[],
  policy: Pick<SessionPolicy, 'plugins' | 'mcpServers'>,
  externalTools: readonly ExternalToolDefinition[] = [],
): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const enabledPlugins = new Set(policy.plugins);
  for (const entry of registered) {
    const { tool } = entry;
    if (tool.mcp) {
      const gate = Object.hasOwn(policy.mcpServers, tool.mcp.server)
        ? policy.mcpServers[tool.mcp.server]
        : undefined;
      if (!gate) {
        result.removed.push({
          name: tool.name,
          reason: {
            stage: 'candidates',
            rule: `mcpServers.${tool.mcp.server}`,
            reason: `MCP server "${tool.mcp.server}" is not enabled in the personality`,
          },
        });
        continue;
      }
      const original = tool.mcp.originalName;
      if (gate.includeTools && !gate.includeTools.some((pattern) => matchesNamePattern(pattern, original))) {
        result.removed.push({
          name: tool.name,
          reason: {
            stage: 'candidates',
            rule: `mcpServers.${tool.mcp.server}.includeTools`,
            reason: `"${original}" is not in the includeTools of MCP server "${tool.mcp.server}"`,
          },
        });
        continue;
      }
      const excludedBy = gate.excludeTools?.find((pattern) => matchesNamePattern(pattern, original));
      if (excludedBy !== undefined) {
        result.removed.push({
          name: tool.name,
          reason: {
            stage: 'candidates',
            rule: `mcpServers.${tool.mcp.server}.excludeTools: ${excludedBy}`,
            reason: `"${original}" is excluded by the excludeTools of MCP server "${tool.mcp.server}"`,
          },
        });
        continue;
      }
      result.kept.push(poolTool(entry, 'mcp'));
      continue;
    }
    if (entry.pluginId !== undefined && !enabledPlugins.has(entry.pluginId)) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'candidates',
          rule: `plugins: ${entry.pluginId}`,
          reason: `plugin "${entry.pluginId}" is not enabled in the personality`,
        },
      });
      continue;
    }
    result.kept.push(poolTool(entry, 'builtin'));
  }
  const external = validateExternalTools(externalTools);
  result.diagnostics.push(...external.diagnostics);
  for (const definition of external.accepted) {
    result.kept.push({
      name: definition.name,
      source: 'external',
      tool: wrapExternalTool(definition),
      pluginId: undefined,
      mcpServer: undefined,
      deferred: false,
      parameters: externalParameters(definition),
    });
  }
  return result;
}

const poolTools = new WeakMap<RegisteredTool, PoolTool>();

/**
 * One pool entry per registration, reused across assemblies: stages never mutate a PoolTool
 * (they copy to change one), so a 10,000-tool reassembly allocates no candidates. Every entry
 * has the same property layout (absent values as undefined) so the stages stay monomorphic.
 */
function poolTool(entry: RegisteredTool, source: 'builtin' | 'mcp'): PoolTool {
  let cached = poolTools.get(entry);
  if (cached === undefined || cached.tool !== entry.tool || cached.parameters !== entry.parameters) {
    cached = createPoolTool(entry, source);
    poolTools.set(entry, cached);
  }
  return cached;
}

function createPoolTool(entry: RegisteredTool, source: 'builtin' | 'mcp'): PoolTool {
  return {
    name: entry.tool.name,
    source,
    tool: entry.tool,
    pluginId: entry.pluginId,
    mcpServer: entry.tool.mcp?.server,
    deferred: false,
    parameters: entry.parameters,
  };
}
