import type { QuiverConfig } from '../config/config-schema.js';
import type { BuiltinPlugin } from '../host-options.js';
import type { OnDemandPlugin } from './on-demand-plugin.js';
import type { UnloadedPlugin } from './unloaded-plugin.js';

export function isOnDemandPlugin(plugin: BuiltinPlugin | OnDemandPlugin): plugin is OnDemandPlugin {
  return !('definition' in plugin);
}

/** The built-in plugins to load, in their order, and the on-demand ones this configuration leaves out. */
export async function settleOnDemandPlugins(
  plugins: readonly (BuiltinPlugin | OnDemandPlugin)[],
  config: QuiverConfig,
): Promise<{ load: BuiltinPlugin[]; leftOut: UnloadedPlugin[] }> {
  const needed = plugins.map((plugin) => !isOnDemandPlugin(plugin) || plugin.neededBy(config));
  const definitions = await Promise.all(
    plugins.map((plugin, index) => (isOnDemandPlugin(plugin) && needed[index] ? plugin.load() : undefined)),
  );
  const load: BuiltinPlugin[] = [];
  const leftOut: UnloadedPlugin[] = [];
  plugins.forEach((plugin, index) => {
    if (!isOnDemandPlugin(plugin)) load.push(plugin);
    else if (needed[index]) load.push({ definition: definitions[index]!, source: plugin.source });
    else leftOut.push({ pluginId: plugin.pluginId, source: plugin.source, tools: [] });
  });
  return { load, leftOut };
}
