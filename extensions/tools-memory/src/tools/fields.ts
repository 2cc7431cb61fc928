import { z } from 'zod';
import { MEMORY_SCOPES } from '../memory-model.js';

export const scopeField = z
  .enum(MEMORY_SCOPES as ['personality', 'project', 'user'])
  .describe(
    'personality: only this personality remembers it; project: every personality in this workspace; user: every project of this user.',
  );

export const tagsField = z
  .array(z.string().trim().min(1).max(40))
  .max(20)
  .describe('Short topic tags, e.g. ["preferences", "deploy"].');
