import type { PluginDefinition } from '@quiver/types';
import type { QuiverConfig } from '../config/config-schema.js';

/**
 * A built-in plugin imported only when the configuration gives it something to do (the MCP
 * bridge: when `mcpServers` names a server). When it does not, it is left out as a plugin without
 * tools: ids, dependencies and clashes read as when it loads, and nothing of it is imported.
 */
export interface OnDemandPlugin {
  pluginId: string;
  source: string;
  /** Whether this configuration (every settings layer merged) needs the plugin. */
  neededBy(config: QuiverConfig): boolean;
  load(): Promise<PluginDefinition<any>>;
}
