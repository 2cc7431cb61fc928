import { defineTool, fail } from '@quiver/types';
import { z } from 'zod';
import { applyStringEdit } from '../text/string-edit.js';
import { editTextFile } from './edit-text-file.js';

const editFileInput = z.object({
  path: z.string().describe('File to edit, relative to the workspace root.'),
  old_string: z.string().describe('Exact text to replace; must occur exactly once unless replace_all.'),
  new_string: z.string().describe('Replacement text.'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence.'),
});

export const editFileTool = defineTool({
  name: 'edit_file',
  title: 'Edit file',
  description:
    'Replace old_string with new_string in a file. old_string must match exactly once (or set replace_all); line endings, encoding and mode are kept. Fails with stale_write if the file changed since you read it.',
  input: editFileInput,
  toolset: 'code',
  aliases: ['Edit'],
  annotations: { destructive: true },
  capabilities: { fs_reach: { mode: 'write' } },
  permission: { kind: 'write', paths: (args) => [args.path] },
  execute(args, ctx) {
    return editTextFile(ctx, args.path, (split) => {
      const outcome = applyStringEdit(split, args);
      if (outcome.ok) {
        const note = outcome.replacements > 1 ? `Replaced ${outcome.replacements} occurrences.` : undefined;
        return { ok: true, split: outcome.split, counts: outcome.counts, ...(note ? { note } : {}) };
      }
      const code =
        outcome.reason === 'not_found'
          ? 'not_found'
          : outcome.reason === 'ambiguous'
            ? 'conflict'
            : 'input_invalid';
      return {
        ok: false,
        failure: fail(code, `${args.path}: ${outcome.message}`, { path: args.path, lines: outcome.lines }),
      };
    });
  },
});
