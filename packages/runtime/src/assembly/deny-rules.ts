import { type PermissionRule, parsePermissionRule, ruleMatchesToolName } from '@quiver/permissions';
import type { PoolTool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

/**
 * Stage 3: blanket deny rules (`Tool`, `mcp__server`, `*` globs) remove a tool before the model
 * sees it. Rules with a specifier (`terminal(rm:*)`) only narrow what a call may do, so they are
 * left to the execution lifecycle. A rule also matches a tool through the tool's aliases.
 */
export function applyDenyRules(tools: readonly PoolTool[], denyRules: readonly string[]): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const blanket = denyRules.map(parsePermissionRule).filter((rule) => rule.specifier === undefined);
  if (blanket.length === 0) {
    result.kept = [...tools];
    return result;
  }
  // Plain names are looked up in a map; only globs and `mcp__server` rules need matching.
  const exact = new Map<string, PermissionRule>();
  const patterns: PermissionRule[] = [];
  for (const rule of blanket) {
    if (rule.tool.includes('*') || /^mcp__[^_]+(?:_[^_]+)*$/.test(rule.tool)) patterns.push(rule);
    else if (!exact.has(rule.tool)) exact.set(rule.tool, rule);
  }
  for (const tool of tools) {
    const aliases = tool.tool.aliases;
    let rule =
      exact.get(tool.name) ?? aliases?.map((alias) => exact.get(alias)).find((found) => found !== undefined);
    if (!rule && patterns.length > 0) {
      const names = aliases ? [tool.name, ...aliases] : [tool.name];
      rule = patterns.find((candidate) => names.some((name) => ruleMatchesToolName(candidate, name)));
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
