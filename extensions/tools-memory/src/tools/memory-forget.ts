import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { formatMemory } from '../format-memory.js';
import { isFailure, MEMORY_CAPABILITIES, openScope, storageOf } from '../memory-database.js';
import { parseMemoryId } from '../memory-model.js';
import { forgetMemory } from '../memory-store.js';

const input = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .describe('The memory id shown by memory_list or memory_search, e.g. "personality:12".'),
});

export const memoryForget = defineTool({
  name: 'memory_forget',
  title: 'Forget',
  description: 'Delete one memory for good, by its id.',
  input,
  capabilities: MEMORY_CAPABILITIES,
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  async execute(args, ctx) {
    const parsed = parseMemoryId(args.id);
    if (!parsed) {
      return fail(
        'input_invalid',
        `"${args.id}" is not a memory id; ids look like "personality:12" or "project:3".`,
      );
    }
    const storage = storageOf(ctx);
    if (isFailure(storage)) return storage;
    const database = await openScope(storage, parsed.scope);
    if (isFailure(database)) return database;
    const forgotten = await forgetMemory(database, parsed.scope, parsed.rowId);
    if (!forgotten) {
      return fail('not_found', `There is no memory ${args.id}. Find ids with memory_list or memory_search.`, {
        id: args.id,
      });
    }
    return ok(`Forgot ${formatMemory(forgotten)}`, { structured: { memory: forgotten } });
  },
});
