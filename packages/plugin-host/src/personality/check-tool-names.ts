import { parsePermissionRule } from '@quiver/permissions';
import { checkToolName, type ToolNameCatalog, toolNameSuggestions } from '@quiver/runtime';
import { didYouMean } from '../config/format-issues.js';
import type { Personality } from './personality-schema.js';

export interface PersonalityNameIssue {
  /** Where the name is written, e.g. `agents.reviewer.tools`. */
  keyPath: string;
  name: string;
  /** `error`: the name refers to nothing; `warning`: it may be fine (a Claude Code name with no counterpart). */
  level: 'error' | 'warning';
  message: string;
}

export interface CheckToolNamesOptions {
  /** Plugins the personality enables whose tools are not in the catalog: names may be theirs. */
  unloadedPlugins?: readonly string[];
}

/**
 * Checks every tool name a personality writes (toolset, custom agents' tools and
 * disallowedTools, permission rules) against the tools, aliases, Claude Code names, plugin ids
 * and MCP servers the catalog knows, so a typo fails `quiver personality check` instead of
 * silently leaving an agent without tools. The personality's own MCP servers count as known.
 */
export function checkPersonalityToolNames(
  personality: Personality,
  catalog: ToolNameCatalog,
  options: CheckToolNamesOptions = {},
): PersonalityNameIssue[] {
  const known: ToolNameCatalog = {
    ...catalog,
    mcpServers: [...new Set([...catalog.mcpServers, ...Object.keys(personality.mcpServers)])],
  };
  const issues: PersonalityNameIssue[] = [];
  const check = (keyPath: string, name: string) => {
    const result = checkToolName(name, known);
    if (result.status === 'known') return;
    if (result.status === 'no_counterpart') {
      issues.push({
        keyPath,
        name,
        level: 'warning',
        message: `"${name}" is a Claude Code tool that no tool here provides; a plugin tool provides it by declaring "${name}" in its aliases.`,
      });
      return;
    }
    const suggestion = didYouMean(name, toolNameSuggestions(name, known));
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
    const unloaded = options.unloadedPlugins ?? [];
    if (unloaded.length > 0) {
      issues.push({
        keyPath,
        name,
        level: 'warning',
        message: `"${name}" matches no known tool; it may belong to ${unloaded.map((id) => `"${id}"`).join(', ')}, whose tools the check could not see.${hint}`,
      });
      return;
    }
    issues.push({
      keyPath,
      name,
      level: 'error',
      message: `"${name}" matches no tool, alias, plugin or configured MCP server.${hint}`,
    });
  };
  for (const name of personality.toolset ?? []) check('toolset', name);
  for (const [agent, settings] of Object.entries(personality.agents)) {
    for (const name of settings.tools ?? []) check(`agents.${agent}.tools`, name);
    for (const name of settings.disallowedTools ?? []) check(`agents.${agent}.disallowedTools`, name);
  }
  for (const behavior of ['allow', 'ask', 'deny'] as const) {
    for (const rule of personality.permissions[behavior])
      check(`permissions.${behavior}`, parsePermissionRule(rule).tool);
  }
  return issues;
}
