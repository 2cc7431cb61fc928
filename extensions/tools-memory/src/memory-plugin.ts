import { definePlugin, QuiverError } from '@quiver/types';
import type { MemoryLimits } from './memory-model.js';
import { createMemoryTools } from './memory-tools.js';

export const MEMORY_PLUGIN_VERSION = '0.1.0';

const LIMIT_KEYS = ['maxMemoryChars', 'maxMemoriesPerScope', 'maxBytesPerScope'] as const;

/** Reads `pluginConfig.tools-memory` limits; anything else there is a configuration error. */
function limitsFromConfig(config: Readonly<Record<string, unknown>>): Partial<MemoryLimits> {
  const limits: Partial<MemoryLimits> = {};
  for (const [key, value] of Object.entries(config)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key)) {
      throw new QuiverError('config_invalid', `Unknown tools-memory setting "${key}".`, {
        fix: `Use only ${LIMIT_KEYS.join(', ')} under pluginConfig.tools-memory.`,
      });
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new QuiverError('config_invalid', `tools-memory setting ${key} must be a positive integer.`, {
        fix: `Set ${key} to a whole number such as 1000.`,
      });
    }
    limits[key as keyof MemoryLimits] = value;
  }
  return limits;
}

/** Registers memory_save, memory_search, memory_list and memory_forget. */
export const memoryPlugin = definePlugin({
  id: 'tools-memory',
  apiVersion: 1,
  version: MEMORY_PLUGIN_VERSION,
  description: 'Durable memories per personality, project and user, ranked by BM25 on SQLite or PostgreSQL.',
  requires: ['config'],
  register(ctx) {
    for (const tool of createMemoryTools(limitsFromConfig(ctx.services.config ?? {}))) ctx.registerTool(tool);
  },
});
