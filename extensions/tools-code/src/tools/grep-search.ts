import { defineTool, fail, ok, type Tool } from '@quiver/types';
import { z } from 'zod';
import { grepWithJavaScript } from '../search/grep-javascript.js';
import type { GrepEngineResult, GrepOutcome, GrepQuery } from '../search/grep-query.js';
import { findRipgrep, grepWithRipgrep } from '../search/grep-ripgrep.js';
import { verifyMatches } from '../search/verify-matches.js';
import { type WalkAccess, Withheld } from '../workspace/read-deny.js';
import { resolveDirectory } from './resolve-directory.js';
import { fsReachOf } from './tool-support.js';

const MAX_LINE_CHARS = 400;

const grepSearchInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Regular expression (Rust/JS syntax), or literal text with fixed_strings.'),
  path: z.string().default('.').describe('Directory to search in, relative to the workspace root.'),
  fixed_strings: z.boolean().default(false).describe('Treat the pattern as literal text.'),
  case_sensitive: z
    .boolean()
    .optional()
    .describe('Omit for smart case: insensitive unless the pattern has an upper-case letter.'),
  include: z.array(z.string()).default([]).describe('Only search files matching these globs, e.g. ["*.ts"].'),
  exclude: z.array(z.string()).default([]).describe('Skip files and directories matching these globs.'),
  context: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(0)
    .describe('Lines of context before and after each match.'),
  max_results: z.number().int().min(1).max(5000).default(100).describe('Matching lines to return at most.'),
});

export type GrepEngineChoice = 'auto' | 'ripgrep' | 'javascript';

export interface GrepSearchToolOptions {
  /** `auto` uses ripgrep when `rg` is on PATH and the JavaScript engine otherwise. */
  engine?: GrepEngineChoice;
}

function truncateLine(text: string): string {
  return text.length > MAX_LINE_CHARS
    ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]`
    : text;
}

export function formatGrepOutcome(outcome: GrepOutcome, prefix: string): string {
  if (outcome.matchCount === 0) return 'No matches.';
  const out: string[] = [];
  for (const file of outcome.files) {
    let previous: number | undefined;
    for (const line of file.lines) {
      if (previous !== undefined && line.number > previous + 1) out.push('--');
      const separator = line.kind === 'match' ? ':' : '-';
      out.push(`${prefix}${file.path}${separator}${line.number}${separator}${truncateLine(line.text)}`);
      previous = line.number;
    }
  }
  const fileCount = outcome.files.length;
  out.push(
    outcome.truncated
      ? `[${outcome.matchCount} matching lines shown in ${fileCount} files; more matches exist. Narrow the pattern or path, or raise max_results.]`
      : `[${outcome.matchCount} matching lines in ${fileCount} files.]`,
  );
  return out.join('\n');
}

/** Builds grep_search with a chosen engine; both engines return the same lines in the same order. */
export function createGrepSearchTool(options: GrepSearchToolOptions = {}): Tool<typeof grepSearchInput> {
  const choice = options.engine ?? 'auto';
  let ripgrep: Promise<string | undefined> | undefined;
  return defineTool({
    name: 'grep_search',
    title: 'Search file contents',
    description:
      'Search file contents by regular expression or literal text, honouring .gitignore. Returns path:line:text for matches (path-line-text for context), sorted by path.',
    input: grepSearchInput,
    toolset: 'code',
    aliases: ['Grep'],
    annotations: { readOnly: true, idempotent: true },
    capabilities: { fs_reach: { mode: 'read' } },
    permission: { kind: 'read', paths: (args) => [args.path ?? '.'] },
    async execute(args, ctx) {
      const directory = await resolveDirectory(
        ctx,
        args.path,
        '; give the directory that contains it and an include glob',
      );
      if (!directory.ok) return directory.failure;
      const { target, shownPath } = directory;
      const query: GrepQuery = {
        pattern: args.pattern,
        fixedStrings: args.fixed_strings,
        caseSensitive: args.case_sensitive,
        include: args.include,
        exclude: args.exclude,
        contextLines: args.context,
        maxResults: args.max_results,
      };
      let binary: string | undefined;
      if (choice !== 'javascript') {
        ripgrep ??= findRipgrep();
        binary = await ripgrep;
        if (binary === undefined && choice === 'ripgrep')
          return fail('not_available', 'ripgrep (rg) is not installed.');
      }
      const access: WalkAccess = { fsReach: fsReachOf(ctx), session: ctx.session, withheld: new Withheld() };
      const result: GrepEngineResult =
        binary === undefined
          ? await grepWithJavaScript(target.absolute, query, access, ctx.signal)
          : await grepWithRipgrep(binary, target.absolute, query, ctx.signal);
      if (!result.ok) return fail('input_invalid', result.error);
      const outcome =
        binary === undefined ? result.outcome : await verifyMatches(target.absolute, result.outcome, access);
      const prefix = shownPath === '.' ? '' : `${shownPath}/`;
      const withheldNote = access.withheld.note();
      const text = formatGrepOutcome(outcome, prefix);
      return ok(withheldNote === undefined ? text : `${text}\n${withheldNote}`, {
        structured: {
          engine: binary === undefined ? 'javascript' : 'ripgrep',
          ...outcome,
          files: outcome.files.map((file) => ({ ...file, path: prefix + file.path })),
          withheld: access.withheld.structured,
        },
      });
    },
  });
}

export const grepSearchTool = createGrepSearchTool();
