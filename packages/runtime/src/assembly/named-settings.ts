import { parsePermissionRule } from '@quiver/permissions';
import type { RegisteredTool, UnloadedTool } from '@quiver/types';
import type { NamedTool, ToolNameCatalog } from '../agents/tool-name-resolver.js';
import type { ExternalToolDefinition, SessionOptions, SessionPolicy } from '../contracts.js';
import { TOOL_SEARCH_TOOL_NAME } from '../search/tool-search-tool.js';
import type { NamedSetting } from './name-diagnostics.js';

const namedTools = new WeakMap<RegisteredTool, NamedTool>();
let lastCatalog:
  | {
      registered: readonly RegisteredTool[];
      unloaded: readonly UnloadedTool[];
      key: string;
      catalog: ToolNameCatalog;
    }
  | undefined;

/**
 * What names may refer to in a session: every registered tool (enabled or not: naming a tool of
 * a disabled plugin is not a typo), the tools of plugins left out of this process (`unloaded`,
 * as their plugins declare them: a rule for one reads as when it loads), the session's external
 * tools, tool_search, and the MCP servers the personality enables. MCP tools registered for a
 * server are its known tool list. The last catalog is reused while the same registrations come
 * back, so reassembling a large pool does not rebuild it.
 */
export function toolNameCatalog(
  registered: readonly RegisteredTool[],
  externals: readonly ExternalToolDefinition[],
  policy: Pick<SessionPolicy, 'mcpServers'>,
  unloaded: readonly UnloadedTool[] = [],
): ToolNameCatalog {
  const servers = Object.keys(policy.mcpServers);
  const key = [...servers, '', ...externals.map((definition) => definition.name)].join('\u0000');
  if (
    lastCatalog?.key === key &&
    lastCatalog.unloaded === unloaded &&
    sameEntries(lastCatalog.registered, registered)
  )
    return lastCatalog.catalog;
  const tools: NamedTool[] = registered.map(namedTool);
  for (const { name, aliases, pluginId } of unloaded) tools.push({ name, aliases, pluginId });
  for (const definition of externals) tools.push({ name: definition.name });
  tools.push({ name: TOOL_SEARCH_TOOL_NAME });
  const catalog = { tools, mcpServers: servers };
  lastCatalog = { registered, unloaded, key, catalog };
  return catalog;
}

function namedTool(entry: RegisteredTool): NamedTool {
  let named = namedTools.get(entry);
  if (named === undefined) {
    const { tool, pluginId } = entry;
    named = { name: tool.name, aliases: tool.aliases, pluginId, mcpServer: tool.mcp?.server };
    namedTools.set(entry, named);
  }
  return named;
}

function sameEntries(a: readonly RegisteredTool[], b: readonly RegisteredTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The tool names a session's configuration writes outside the session filter (which checks its
 * own): custom agents' lists, permission rules, and defaultAgentExcludedTools.
 */
export function namedSettings(
  policy: Pick<SessionPolicy, 'agents' | 'permissions'>,
  options: Pick<SessionOptions, 'defaultAgentExcludedTools' | 'permissions'>,
  denyRules: readonly string[],
): NamedSetting[] {
  const settings: NamedSetting[] = [];
  for (const [name, agent] of Object.entries(policy.agents)) {
    settings.push({ setting: `agents.${name}.tools`, names: agent.tools });
    settings.push({ setting: `agents.${name}.disallowedTools`, names: agent.disallowedTools });
  }
  const rules = [...(policy.permissions.allow ?? []), ...(policy.permissions.ask ?? []), ...denyRules];
  const extra = [...(options.permissions?.allow ?? []), ...(options.permissions?.ask ?? [])];
  settings.push({ setting: 'permissions', names: ruleTools([...rules, ...extra]) });
  settings.push({ setting: 'defaultAgentExcludedTools', names: options.defaultAgentExcludedTools });
  return settings;
}

function ruleTools(rules: readonly string[]): string[] {
  return [...new Set(rules.map((rule) => parsePermissionRule(rule).tool))];
}
