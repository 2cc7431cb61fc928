import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { type EntryType, walkWorkspace } from '../search/workspace-walker.js';
import { type WalkAccess, Withheld, withholdsEntry } from '../workspace/read-deny.js';
import { resolveDirectory } from './resolve-directory.js';
import { fsReachOf } from './tool-support.js';

export const LIST_DIR_MAX_DEPTH = 5;

const listDirInput = z.object({
  path: z.string().default('.').describe('Directory to list, relative to the workspace root.'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(LIST_DIR_MAX_DEPTH)
    .default(1)
    .describe(`How many levels to descend (1-${LIST_DIR_MAX_DEPTH}).`),
  max_entries: z.number().int().min(1).max(5000).default(500).describe('Entries to show at most.'),
});

export interface ListedEntry {
  path: string;
  type: EntryType;
  size?: number;
}

export const listDirTool = defineTool({
  name: 'list_dir',
  title: 'List directory',
  description:
    'List a directory (and subdirectories up to `depth`) with entry types and file sizes, sorted, honouring .gitignore files. Symlinks are shown but not entered.',
  input: listDirInput,
  toolset: 'code',
  annotations: { readOnly: true, idempotent: true },
  capabilities: { fs_reach: { mode: 'read' } },
  permission: { kind: 'read', paths: (args) => [args.path ?? '.'] },
  async execute(args, ctx) {
    const directory = await resolveDirectory(ctx, args.path, '; use read_file for files');
    if (!directory.ok) return directory.failure;
    const { target, shownPath } = directory;
    const entries: ListedEntry[] = [];
    let omitted = 0;
    const access: WalkAccess = { fsReach: fsReachOf(ctx), session: ctx.session, withheld: new Withheld() };
    const walk = walkWorkspace(target.absolute, {
      maxDepth: args.depth,
      sizes: true,
      signal: ctx.signal,
      filter: async (entry) => !(await withholdsEntry(access, entry)),
    });
    for await (const entry of walk) {
      if (entries.length >= args.max_entries) {
        omitted += 1;
        continue;
      }
      const listed: ListedEntry = { path: entry.relative, type: entry.type };
      if (entry.type === 'file' && entry.size !== undefined) listed.size = entry.size;
      entries.push(listed);
    }
    const lines = entries.map((entry) => {
      if (entry.type === 'directory') return `${entry.path}/`;
      if (entry.type === 'file')
        return entry.size === undefined
          ? `${entry.path}  (size unknown)`
          : `${entry.path}  (${entry.size} bytes)`;
      return `${entry.path}  [${entry.type}]`;
    });
    const header = `${shownPath === '.' ? './' : `${shownPath}/`} (${entries.length + omitted} entries, depth ${args.depth})`;
    if (omitted > 0) lines.push(`[${omitted} more entries not shown; list a subdirectory or lower depth.]`);
    const withheldNote = access.withheld.note();
    if (withheldNote !== undefined) lines.push(withheldNote);
    return ok([header, ...lines].join('\n'), {
      structured: { path: shownPath, entries, omitted, withheld: access.withheld.structured },
    });
  },
});
