import type { BuiltinPlugin } from '@quiver/plugin-host';
import { DECLARED_TOOLS as CODE_TOOLS } from '@quiver/tools-code/declared-tools';
import { DECLARED_TOOLS as KANBAN_TOOLS } from '@quiver/tools-kanban/declared-tools';
import { DECLARED_TOOLS as MEMORY_TOOLS } from '@quiver/tools-memory/declared-tools';
import { DECLARED_TOOLS as REPL_TOOLS } from '@quiver/tools-repl/declared-tools';
import { DECLARED_TOOLS as TERMINAL_TOOLS } from '@quiver/tools-terminal/declared-tools';
import type { PluginDefinition } from '@quiver/types';

/**
 * A first-party plugin: where it comes from, the tool names it declares it can register
 * (undefined: not declared, e.g. the MCP bridge, whose tools are the configured servers'), and
 * how to import it. Each plugin is imported only when loaded.
 */
export interface FirstPartyPlugin {
  readonly source: string;
  readonly declaredTools: readonly string[] | undefined;
  load(): Promise<PluginDefinition<any, any>>;
}

export const FIRST_PARTY: readonly FirstPartyPlugin[] = [
  {
    source: '@quiver/tools-terminal',
    declaredTools: TERMINAL_TOOLS,
    load: async () => (await import('@quiver/tools-terminal')).terminalPlugin,
  },
  {
    source: '@quiver/tools-code',
    declaredTools: CODE_TOOLS,
    load: async () => (await import('@quiver/tools-code')).codePlugin,
  },
  {
    source: '@quiver/tools-kanban',
    declaredTools: KANBAN_TOOLS,
    load: async () => (await import('@quiver/tools-kanban')).kanbanPlugin,
  },
  {
    source: '@quiver/tools-memory',
    declaredTools: MEMORY_TOOLS,
    load: async () => (await import('@quiver/tools-memory')).memoryPlugin,
  },
  {
    source: '@quiver/mcp-bridge',
    declaredTools: undefined,
    load: async () => (await import('@quiver/mcp-bridge')).mcpBridgePlugin,
  },
  // Loaded, not enabled by the default personality: a personality opts in with `plugins: [tools-repl]`.
  {
    source: '@quiver/tools-repl',
    declaredTools: REPL_TOOLS,
    load: async () => (await import('@quiver/tools-repl')).replPlugin,
  },
];

/**
 * The first-party plugins to load. With `onlyTools`, a plugin whose declaration names none of
 * those tools is left out (not imported); a plugin without a declaration always loads. A name no
 * declaration holds (an alias such as `Read`, a bridged server's tool, a typo) loads every plugin,
 * so that the tool is found, or reported missing, exactly as without the option.
 */
export function firstPartyPluginsFor(onlyTools: readonly string[] | undefined): FirstPartyPlugin[] {
  if (onlyTools === undefined) return [...FIRST_PARTY];
  const declared = new Set(FIRST_PARTY.flatMap((plugin) => plugin.declaredTools ?? []));
  if (!onlyTools.every((tool) => declared.has(tool))) return [...FIRST_PARTY];
  return FIRST_PARTY.filter(
    (plugin) =>
      plugin.declaredTools === undefined || plugin.declaredTools.some((tool) => onlyTools.includes(tool)),
  );
}

/** Imports the plugins (in parallel), in their order. */
export async function loadFirstPartyPlugins(
  plugins: readonly FirstPartyPlugin[] = FIRST_PARTY,
): Promise<BuiltinPlugin[]> {
  const definitions = await Promise.all(plugins.map((plugin) => plugin.load()));
  return plugins.map((plugin, index) => ({ definition: definitions[index]!, source: plugin.source }));
}
