import type { UnloadedTool } from '@quiver/types';

/**
 * A built-in plugin the embedder left out of this process without importing it, with the tools it
 * declares: the registry lists them as unloaded, so that names and rules written for them are read
 * as when it loads, a plugin registering one of those names clashes as it would, and a plugin that
 * depends on it loads as it would.
 */
export interface UnloadedPlugin {
  pluginId: string;
  source: string;
  tools: readonly UnloadedTool[];
}
