import type { Memory } from './memory-model.js';

export function formatMemory(memory: Memory): string {
  const tags = memory.tags.length > 0 ? ` {${memory.tags.join(', ')}}` : '';
  return `[${memory.id}]${tags} ${memory.text.replace(/\s*\n\s*/g, ' ')} (saved ${memory.updatedAt.slice(0, 10)})`;
}
