import { parsePermissionRule } from '@quiver/permissions';
import type { PermissionRules } from '@quiver/types';
import { type NamedTool, namesTool } from '../agents/tool-name-resolver.js';

/**
 * Permission rules with the tool part written as users write it — an alias, a Claude Code name,
 * a plugin id — restated for each tool it means, so the permission engine (which matches tool
 * names only) applies `Bash(rm:*)` to the terminal and its background tools and `Read(.env)` to
 * read_file. The rule as written is kept too; names, globs and `mcp__` rules pass unchanged.
 */
export function expandRuleToolNames(rules: PermissionRules, tools: readonly NamedTool[]): PermissionRules {
  const names = new Set(tools.map((tool) => tool.name));
  const expand = (list: readonly string[] | undefined) => {
    if (list === undefined) return undefined;
    const expanded: string[] = [];
    for (const source of list) {
      expanded.push(source);
      const rule = parsePermissionRule(source);
      if (names.has(rule.tool) || rule.tool.includes('*') || rule.tool.startsWith('mcp__')) continue;
      const rest = rule.source.slice(rule.tool.length);
      for (const tool of tools) if (namesTool(rule.tool, tool)) expanded.push(`${tool.name}${rest}`);
    }
    return [...new Set(expanded)];
  };
  const result: PermissionRules = {};
  const allow = expand(rules.allow);
  const ask = expand(rules.ask);
  const deny = expand(rules.deny);
  if (allow) result.allow = allow;
  if (ask) result.ask = ask;
  if (deny) result.deny = deny;
  return result;
}
