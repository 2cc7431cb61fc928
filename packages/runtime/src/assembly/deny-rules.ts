import { type PermissionRule, parsePermissionRule } from '@quiver/permissions';
import { namesTool } from '../agents/tool-name-resolver.js';
import type { PoolTool } from '../contracts.js';
import { isClaudeCodeToolName } from '../providers/tool-name-compatibility.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 3: blanket deny rules (`Tool`, `mcp__server`, `*` globs, aliases, Claude Code names such
 * as `Bash`, plugin ids) remove a tool before the model sees it. Rules with a specifier
 * (`terminal(rm:*)`) only narrow what a call may do, so they are left to the execution lifecycle.
 */
export function applyDenyRules(tools: readonly PoolTool[], denyRules: readonly string[]): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const blanket = denyRules.map(parsePermissionRule).filter((rule) => rule.specifier === undefined);
  if (blanket.length === 0) {
    result.kept = [...tools];
    return result;
  }
  // Plain names (a tool, an alias, a plugin id) are looked up in a map; the rest need the resolver.
  const exact = new Map<string, PermissionRule>();
  const resolved: PermissionRule[] = [];
  for (const rule of blanket) {
    if (rule.tool.includes('*') || rule.tool.startsWith('mcp__') || isClaudeCodeToolName(rule.tool))
      resolved.push(rule);
    else if (!exact.has(rule.tool)) exact.set(rule.tool, rule);
  }
  for (const tool of tools) {
    const aliases = tool.tool.aliases;
    let rule =
      exact.get(tool.name) ??
      (tool.pluginId === undefined ? undefined : exact.get(tool.pluginId)) ??
      aliases?.map((alias) => exact.get(alias)).find((found) => found !== undefined) ??
      // The shell tools share one rule space: a blanket `terminal` deny removes every tool of kind shell.
      (tool.tool.permission?.kind === 'shell' ? exact.get('terminal') : undefined);
    if (!rule && resolved.length > 0) {
      const named = { name: tool.name, aliases, pluginId: tool.pluginId, mcpServer: tool.mcpServer };
      rule = resolved.find((candidate) => namesTool(candidate.tool, named));
    }
    if (rule) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'deny_rules',
          rule: rule.source,
          reason: `denied by the permission rule "${rule.source}"`,
        },
      });
    } else {
      result.kept.push(tool);
    }
  }
  return result;
}
