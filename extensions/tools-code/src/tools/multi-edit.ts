import { defineTool, fail } from '@quiver/types';
import { z } from 'zod';
import type { SplitText } from '../text/line-endings.js';
import { applyStringEdit } from '../text/string-edit.js';
import { editTextFile } from './edit-text-file.js';

const multiEditInput = z.object({
  path: z.string().describe('File to edit, relative to the workspace root.'),
  edits: z
    .array(
      z.object({
        old_string: z.string(),
        new_string: z.string(),
        replace_all: z.boolean().default(false),
      }),
    )
    .min(1)
    .describe('Edits applied in order, each to the result of the previous one.'),
});

export const multiEditTool = defineTool({
  name: 'multi_edit',
  title: 'Edit file (several edits)',
  description:
    'Apply several old_string → new_string edits to one file, in order, all or nothing: if any edit fails, the file is left unchanged.',
  input: multiEditInput,
  toolset: 'code',
  aliases: ['MultiEdit'],
  annotations: { destructive: true },
  capabilities: { fs_reach: { mode: 'write' } },
  permission: { kind: 'write', paths: (args) => [args.path] },
  execute(args, ctx) {
    return editTextFile(ctx, args.path, (original) => {
      let split: SplitText = original;
      const counts = { linesAdded: 0, linesRemoved: 0 };
      for (const [index, edit] of args.edits.entries()) {
        const outcome = applyStringEdit(split, edit);
        if (!outcome.ok) {
          const code =
            outcome.reason === 'not_found'
              ? 'not_found'
              : outcome.reason === 'ambiguous'
                ? 'conflict'
                : 'input_invalid';
          return {
            ok: false,
            failure: fail(
              code,
              `${args.path}: edit ${index + 1} of ${args.edits.length} failed: ${outcome.message} No edit was applied.`,
              {
                path: args.path,
                edit: index + 1,
                lines: outcome.lines,
              },
            ),
          };
        }
        split = outcome.split;
        counts.linesAdded += outcome.counts.linesAdded;
        counts.linesRemoved += outcome.counts.linesRemoved;
      }
      return { ok: true, split, counts };
    });
  },
});
