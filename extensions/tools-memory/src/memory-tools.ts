import type { Tool } from '@quiver/types';
import { DEFAULT_MEMORY_LIMITS, type MemoryLimits } from './memory-model.js';
import { memoryForget } from './tools/memory-forget.js';
import { memoryList } from './tools/memory-list.js';
import { createMemorySaveTool } from './tools/memory-save.js';
import { memorySearch } from './tools/memory-search.js';

/** The four memory tools; `limits` override the defaults (4,000 chars, 1,000 memories, 1 MB per scope). */
export function createMemoryTools(limits: Partial<MemoryLimits> = {}): Tool[] {
  return [
    createMemorySaveTool({ ...DEFAULT_MEMORY_LIMITS, ...limits }),
    memorySearch,
    memoryList,
    memoryForget,
  ];
}

export const memorySave = createMemorySaveTool();
