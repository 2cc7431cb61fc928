import { defineTool, ok, type StorageScope } from '@quiver/types';
import { z } from 'zod';
import { formatMemory } from '../format-memory.js';
import { isFailure, MEMORY_CAPABILITIES, openScope, readableScopes, storageOf } from '../memory-database.js';
import type { Memory } from '../memory-model.js';
import { listMemories } from '../memory-store.js';
import { scopeField, tagsField } from './fields.js';

const input = z.object({
  scope: scopeField.optional().describe('Only this scope; all readable scopes when omitted.'),
  tags: tagsField.optional().describe('Only memories carrying every one of these tags.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe('At most this many memories, most recent first.'),
});

export const memoryList = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description: 'List remembered items, most recently saved first, with their ids (for memory_forget).',
  input,
  capabilities: MEMORY_CAPABILITIES,
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const storage = storageOf(ctx);
    if (isFailure(storage)) return storage;
    const totals: Partial<Record<StorageScope, number>> = {};
    const memories: Memory[] = [];
    for (const scope of readableScopes(storage, args.scope ? [args.scope] : undefined)) {
      const database = await openScope(storage, scope);
      if (isFailure(database)) return database;
      const page = await listMemories(database, scope, args.tags ?? [], args.limit);
      totals[scope] = page.total;
      memories.push(...page.memories);
    }
    memories.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const shown = memories.slice(0, args.limit);
    const total = Object.values(totals).reduce((sum, count) => sum + count, 0);
    const counts = Object.entries(totals)
      .map(([scope, count]) => `${scope} ${count}`)
      .join(' · ');
    const heading = `${total} memor${total === 1 ? 'y' : 'ies'} (${counts})${shown.length < total ? `, showing the ${shown.length} most recent` : ''}`;
    const text = shown.length === 0 ? `${heading}.` : `${heading}:\n${shown.map(formatMemory).join('\n')}`;
    return ok(text, { structured: { total, totals, memories: shown } });
  },
});
