import { defineTool, fail, ok, type Tool } from '@quiver/types';
import { z } from 'zod';
import { formatMemory } from '../format-memory.js';
import { isFailure, MEMORY_CAPABILITIES, openScope, storageOf } from '../memory-database.js';
import { DEFAULT_MEMORY_LIMITS, type MemoryLimits } from '../memory-model.js';
import { saveMemory } from '../memory-store.js';
import { scopeField, tagsField } from './fields.js';

const input = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .describe('The fact, preference or decision to remember, as a self-contained sentence.'),
  tags: tagsField.default([]),
  scope: scopeField.default('personality'),
});

/** `memory_save` with the given limits (per memory and per scope). */
export function createMemorySaveTool(limits: MemoryLimits = DEFAULT_MEMORY_LIMITS): Tool<typeof input> {
  return defineTool({
    name: 'memory_save',
    title: 'Remember',
    description:
      'Remember something the user said or decided, for later sessions. Saving nearly the same text again updates the existing memory instead of adding a copy.',
    input,
    capabilities: MEMORY_CAPABILITIES,
    annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    async execute(args, ctx) {
      if (args.text.length > limits.maxMemoryChars) {
        return fail(
          'limit_exceeded',
          `The memory is ${args.text.length.toLocaleString('en-US')} characters; the limit is ${limits.maxMemoryChars.toLocaleString('en-US')} per memory. Save the key facts as several shorter memories.`,
          { length: args.text.length, limit: limits.maxMemoryChars },
        );
      }
      const storage = storageOf(ctx);
      if (isFailure(storage)) return storage;
      const database = await openScope(storage, args.scope);
      if (isFailure(database)) return database;
      const saved = await saveMemory(
        database,
        args.scope,
        { text: args.text, tags: args.tags, savedBy: ctx.personalityId },
        limits,
      );
      if (!saved.ok) return saved;
      const { memory, merged } = saved.value;
      const verb = merged ? 'Updated a near-identical memory instead of adding a copy:' : 'Remembered:';
      return ok(`${verb} ${formatMemory(memory)}`, { structured: { memory, merged } });
    },
  });
}
