import { matchesNamePattern } from '@quiver/types';
import { compatibleToolNames, isClaudeCodeToolName } from '../providers/tool-name-compatibility.js';

/** What a name written by a user can refer to in one tool. */
export interface NamedTool {
  name: string;
  aliases?: readonly string[] | undefined;
  pluginId?: string | undefined;
  mcpServer?: string | undefined;
}

/**
 * True when a name as users write it refers to `tool`: its own name or a `*` glob over it
 * (`mcp__github__*`), one of its aliases, a Claude Code name mapped to it (`Bash` → terminal),
 * the id of the plugin that contributes it, or `mcp__<server>` for every tool of a server.
 * Agent allowlists, custom agents' tools, session allow/exclude lists and deny rules all ask this.
 */
export function namesTool(requested: string, tool: NamedTool): boolean {
  if (requested === tool.name) return true;
  if (requested.includes('*'))
    return (
      matchesNamePattern(requested, tool.name) ||
      tool.aliases?.some((alias) => matchesNamePattern(requested, alias)) === true
    );
  if (tool.aliases?.includes(requested)) return true;
  if (compatibleToolNames(requested).includes(tool.name)) return true;
  if (tool.pluginId !== undefined && requested === tool.pluginId) return true;
  return tool.mcpServer !== undefined && requested === `mcp__${tool.mcpServer}`;
}

/** The first of `names` that refers to `tool`. */
export function firstNaming(names: readonly string[], tool: NamedTool): string | undefined {
  return names.find((requested) => namesTool(requested, tool));
}

/** Everything a name may be checked against: the tools known so far and the configured MCP servers. */
export interface ToolNameCatalog {
  tools: readonly NamedTool[];
  /** Servers the configuration enables; their tools may not be listed yet. */
  mcpServers: readonly string[];
  /** Other words that count as known where the name is used (toolset groups). */
  extraNames?: readonly string[];
}

export type ToolNameCheck =
  | { status: 'known' }
  /** A Claude Code name that no tool here answers to. */
  | { status: 'no_counterpart' }
  | { status: 'unknown' };

const exactNames = new WeakMap<ToolNameCatalog, Set<string>>();

/** Names, aliases and plugin ids of the catalog, built once per catalog for exact lookups. */
function exactNamesOf(catalog: ToolNameCatalog): Set<string> {
  let names = exactNames.get(catalog);
  if (names === undefined) {
    names = new Set(catalog.extraNames);
    for (const tool of catalog.tools) {
      names.add(tool.name);
      for (const alias of tool.aliases ?? []) names.add(alias);
      if (tool.pluginId !== undefined) names.add(tool.pluginId);
    }
    exactNames.set(catalog, names);
  }
  return names;
}

/**
 * Whether a name refers to anything: a tool, an alias, a Claude Code name, a plugin id, or an
 * MCP server the configuration enables. An MCP name is checked against the server's tools only
 * when they are known (the server listed them); an unlisted server's names are taken on trust.
 */
export function checkToolName(requested: string, catalog: ToolNameCatalog): ToolNameCheck {
  const exact = exactNamesOf(catalog);
  if (requested === '*' || exact.has(requested)) return { status: 'known' };
  // Beyond exact names only globs, Claude Code names and `mcp__server` can name a tool.
  if (requested.includes('*') || (requested.startsWith('mcp__') && !requested.slice(5).includes('__'))) {
    if (catalog.tools.some((tool) => namesTool(requested, tool))) return { status: 'known' };
  } else if (compatibleToolNames(requested).some((name) => exact.has(name))) return { status: 'known' };
  if (requested.startsWith('mcp__')) {
    const server = mcpServerOf(requested);
    if (!isConfigured(server, catalog)) return { status: 'unknown' };
    const listed = catalog.tools.some((tool) => tool.mcpServer !== undefined && tool.mcpServer === server);
    return listed ? { status: 'unknown' } : { status: 'known' };
  }
  return isClaudeCodeToolName(requested) ? { status: 'no_counterpart' } : { status: 'unknown' };
}

/** The names an unknown name may have meant, for a did-you-mean. */
export function toolNameSuggestions(requested: string, catalog: ToolNameCatalog): string[] {
  if (!requested.startsWith('mcp__')) return [...exactNamesOf(catalog), ...mcpServerNames(catalog)];
  const server = mcpServerOf(requested);
  if (isConfigured(server, catalog))
    return catalog.tools.filter((tool) => tool.mcpServer === server).map((tool) => tool.name);
  // The same name on a configured server: `mcp__gitlab__*` → `mcp__github__*`.
  const rest = requested.slice('mcp__'.length + server.length);
  return catalog.mcpServers.map((name) => `mcp__${name}${rest}`);
}

function mcpServerOf(requested: string): string {
  return requested.slice('mcp__'.length).split('__')[0] ?? '';
}

function isConfigured(server: string, catalog: ToolNameCatalog): boolean {
  return catalog.mcpServers.some((name) => matchesNamePattern(server, name));
}

function mcpServerNames(catalog: ToolNameCatalog): string[] {
  return catalog.mcpServers.map((server) => `mcp__${server}`);
}
