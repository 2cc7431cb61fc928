// Public surface of @quiver/tools-memory.
import { memoryPlugin } from './memory-plugin.js';

export type { Memory, MemoryLimits, ScoredMemory } from './memory-model.js';
export { DEFAULT_MEMORY_LIMITS, MEMORY_SCOPES, MERGE_SIMILARITY } from './memory-model.js';
export { MEMORY_PLUGIN_VERSION, memoryPlugin } from './memory-plugin.js';
export { createMemoryTools, memorySave } from './memory-tools.js';
export { MEMORY_DATABASE, MEMORY_MIGRATIONS } from './schema.js';
export { memoryForget } from './tools/memory-forget.js';
export { memoryList } from './tools/memory-list.js';
export { createMemorySaveTool } from './tools/memory-save.js';
export { memorySearch } from './tools/memory-search.js';

export default memoryPlugin;
