import { defineTool, ok } from '@quiver/types';
import { z } from 'zod';
import { globMatcher } from '../search/glob-filter.js';
import { walkWorkspace } from '../search/workspace-walker.js';
import { type WalkAccess, Withheld, withholdsEntry } from '../workspace/read-deny.js';
import { resolveDirectory } from './resolve-directory.js';
import { fsReachOf } from './tool-support.js';

const fileSearchInput = z.object({
  pattern: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .describe(
      'Glob(s) such as "**/*.ts" or "package.json"; a glob without "/" matches file names at any depth.',
    ),
  path: z.string().default('.').describe('Directory to search in, relative to the workspace root.'),
  max_results: z.number().int().min(1).max(10_000).default(200),
});

export const fileSearchTool = defineTool({
  name: 'file_search',
  title: 'Find files',
  description:
    'Find files by glob pattern, honouring .gitignore files. Returns sorted paths relative to the workspace root.',
  input: fileSearchInput,
  toolset: 'code',
  aliases: ['Glob'],
  annotations: { readOnly: true, idempotent: true },
  capabilities: { fs_reach: { mode: 'read' } },
  permission: { kind: 'read', paths: (args) => [args.path ?? '.'] },
  async execute(args, ctx) {
    const directory = await resolveDirectory(ctx, args.path);
    if (!directory.ok) return directory.failure;
    const { target, shownPath } = directory;
    const patterns = typeof args.pattern === 'string' ? [args.pattern] : args.pattern;
    const matchers = patterns.map(globMatcher);
    const prefix = shownPath === '.' ? '' : `${shownPath}/`;
    const found: string[] = [];
    let rest = 0;
    const access: WalkAccess = { fsReach: fsReachOf(ctx), session: ctx.session, withheld: new Withheld() };
    const walk = walkWorkspace(target.absolute, {
      maxDepth: 256,
      signal: ctx.signal,
      // Directories are judged by name; files only when they match, so the count means "matches withheld".
      filter: async (entry) => entry.type !== 'directory' || !(await withholdsEntry(access, entry)),
    });
    for await (const entry of walk) {
      if (entry.type !== 'file' || !matchers.some((matches) => matches(entry.relative, entry.name))) continue;
      if (await withholdsEntry(access, entry)) continue;
      if (found.length < args.max_results) found.push(prefix + entry.relative);
      else rest += 1;
    }
    found.sort();
    const lines =
      found.length === 0 ? [`No files match ${patterns.join(', ')} in ${shownPath}.`] : [...found];
    if (rest > 0) lines.push(`[${rest} more files match; narrow the pattern or raise max_results.]`);
    const withheldNote = access.withheld.note();
    if (withheldNote !== undefined) lines.push(withheldNote);
    return ok(lines.join('\n'), {
      structured: { files: found, more: rest, withheld: access.withheld.structured },
    });
  },
});
