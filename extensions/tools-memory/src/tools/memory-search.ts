import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { formatMemory } from '../format-memory.js';
import { isFailure, MEMORY_CAPABILITIES, openScope, readableScopes, storageOf } from '../memory-database.js';
import type { ScoredMemory } from '../memory-model.js';
import { searchMemories } from '../memory-store.js';
import { memoryQuery } from '../memory-text.js';
import { scopeField, tagsField } from './fields.js';

const input = z.object({
  query: z.string().trim().min(1).max(1_000).describe('What to recall, in plain words; any wording works.'),
  tags: tagsField.optional().describe('Only memories carrying every one of these tags.'),
  scopes: z
    .array(scopeField)
    .min(1)
    .optional()
    .describe('Scopes to search; by default this personality’s own, the project’s and the user’s.'),
  limit: z.number().int().min(1).max(50).default(10).describe('At most this many memories.'),
});

export const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Recall',
  description:
    'Search remembered facts, preferences and decisions by meaning-bearing words (ranked by relevance), across this personality’s, the project’s and the user’s memories.',
  input,
  capabilities: MEMORY_CAPABILITIES,
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const storage = storageOf(ctx);
    if (isFailure(storage)) return storage;
    const { terms, phrases } = memoryQuery(args.query);
    if (terms.length === 0) {
      return fail('input_invalid', 'The query has no words to search for; use a few words about the memory.');
    }
    const results: ScoredMemory[] = [];
    for (const scope of readableScopes(storage, args.scopes)) {
      const database = await openScope(storage, scope);
      if (isFailure(database)) return database;
      results.push(...(await searchMemories(database, scope, phrases, args.tags ?? [], args.limit)));
    }
    // BM25 ranks are negative, lower is better; ties go to the more recent memory.
    results.sort((a, b) => a.score - b.score || b.updatedAt.localeCompare(a.updatedAt));
    const top = results.slice(0, args.limit);
    const text =
      top.length === 0
        ? `No memories match "${args.query}".`
        : `${top.length} memor${top.length === 1 ? 'y matches' : 'ies match'} "${args.query}", best first:\n` +
          top.map((memory, index) => `${index + 1}. ${formatMemory(memory)}`).join('\n');
    return ok(text, { structured: { query: args.query, terms, results: top } });
  },
});
