import type { BuiltinPlugin, UnloadedPlugin } from '@quiver/plugin-host';
import * as code from '@quiver/tools-code/declared-tools';
import * as kanban from '@quiver/tools-kanban/declared-tools';
import * as memory from '@quiver/tools-memory/declared-tools';
import * as repl from '@quiver/tools-repl/declared-tools';
import * as terminal from '@quiver/tools-terminal/declared-tools';
import type { PluginDefinition, UnloadedTool } from '@quiver/types';

/** What a plugin's `declared-tools` module says: its id and every tool it can register. */
export interface PluginDeclaration {
  readonly PLUGIN_ID: string;
  readonly DECLARED_TOOLS: readonly Omit<UnloadedTool, 'pluginId'>[];
}

/**
 * A first-party plugin: where it comes from, its declaration (undefined: not declared, e.g. the
 * MCP bridge, whose tools are the configured servers'), and how to import it. Each plugin is
 * imported only when loaded.
 */
export interface FirstPartyPlugin {
  readonly source: string;
  readonly declared: PluginDeclaration | undefined;
  load(): Promise<PluginDefinition<any, any>>;
}

export const FIRST_PARTY: readonly FirstPartyPlugin[] = [
  {
    source: '@quiver/tools-terminal',
    declared: terminal,
    load: async () => (await import('@quiver/tools-terminal')).terminalPlugin,
  },
  {
    source: '@quiver/tools-code',
    declared: code,
    load: async () => (await import('@quiver/tools-code')).codePlugin,
  },
  {
    source: '@quiver/tools-kanban',
    declared: kanban,
    load: async () => (await import('@quiver/tools-kanban')).kanbanPlugin,
  },
  {
    source: '@quiver/tools-memory',
    declared: memory,
    load: async () => (await import('@quiver/tools-memory')).memoryPlugin,
  },
  {
    source: '@quiver/mcp-bridge',
    declared: undefined,
    load: async () => (await import('@quiver/mcp-bridge')).mcpBridgePlugin,
  },
  // Loaded, not enabled by the default personality: a personality opts in with `plugins: [tools-repl]`.
  {
    source: '@quiver/tools-repl',
    declared: repl,
    load: async () => (await import('@quiver/tools-repl')).replPlugin,
  },
];

/** The first-party plugins to load, and the tools of those left out. */
export interface FirstPartySelection {
  load: FirstPartyPlugin[];
  unloaded: UnloadedPlugin[];
}

/**
 * With `onlyTools`, a plugin whose declaration names none of those tools (by name or alias) is
 * left out (not imported); a plugin without a declaration always loads. A name no declaration
 * holds (a Claude Code name such as `Bash`, a bridged server's tool, a typo), or a tool that runs
 * other tools (`callsOtherTools`, the REPL), loads every plugin,
 * so that the tool is found, or reported missing with suggestions from every tool, exactly as
 * without the option. The plugins left out are returned with their declarations, which the host
 * reads wherever it would have read their registered tools (names, rules, kinds, clashes).
 */
export function firstPartyPluginsFor(onlyTools: readonly string[] | undefined): FirstPartySelection {
  const all: FirstPartySelection = { load: [...FIRST_PARTY], unloaded: [] };
  if (onlyTools === undefined) return all;
  const provides = (plugin: FirstPartyPlugin, name: string) =>
    plugin.declared?.DECLARED_TOOLS.some((tool) => tool.name === name || tool.aliases?.includes(name)) ===
    true;
  // A name nothing declares, or a tool that runs other tools (the REPL, which may reach any plugin's).
  const needsAll = (name: string) => {
    const tools = FIRST_PARTY.flatMap((plugin) => plugin.declared?.DECLARED_TOOLS ?? []).filter(
      (tool) => tool.name === name || tool.aliases?.includes(name),
    );
    return tools.length === 0 || tools.some((tool) => tool.callsOtherTools === true);
  };
  if (onlyTools.some(needsAll)) return all;
  const selection: FirstPartySelection = { load: [], unloaded: [] };
  for (const plugin of FIRST_PARTY) {
    const { declared } = plugin;
    if (declared === undefined || onlyTools.some((name) => provides(plugin, name)))
      selection.load.push(plugin);
    else
      selection.unloaded.push({
        pluginId: declared.PLUGIN_ID,
        source: plugin.source,
        tools: declared.DECLARED_TOOLS.map((tool) => ({ ...tool, pluginId: declared.PLUGIN_ID })),
      });
  }
  return selection;
}

/** Imports the plugins (in parallel), in their order. */
export async function loadFirstPartyPlugins(
  plugins: readonly FirstPartyPlugin[] = FIRST_PARTY,
): Promise<BuiltinPlugin[]> {
  const definitions = await Promise.all(plugins.map((plugin) => plugin.load()));
  return plugins.map((plugin, index) => ({ definition: definitions[index]!, source: plugin.source }));
}
