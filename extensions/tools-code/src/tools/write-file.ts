import type { Stats } from 'node:fs';
import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { decodeText, encodeText, type TextEncodingName } from '../text/encoding.js';
import { dominantLineEnding, splitLines } from '../text/line-endings.js';
import { countChangedLines } from '../text/string-edit.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { checkStale, lastStamp, recordStamp, withFileLock } from '../workspace/file-stamps.js';
import { openWorkspaceFile } from '../workspace/open-file.js';
import { namesDirectory, resolveWorkspacePath } from '../workspace/resolve-path.js';
import { displayPathOf, type FileEditSummary, fsReachOf } from './tool-support.js';

const writeFileInput = z.object({
  path: z
    .string()
    .describe('File to create or overwrite, relative to the workspace root. Parent directories are created.'),
  content: z.string().describe('The complete new content.'),
});

function contentLines(text: string): string[] {
  const lines = splitLines(text).lines;
  return lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}

export const writeFileTool = defineTool({
  name: 'write_file',
  title: 'Write file',
  description:
    'Create a file or overwrite one with new content, atomically. Overwriting needs a read_file of that file earlier in the session (so nothing unseen is clobbered); its encoding, line endings and mode are kept.',
  input: writeFileInput,
  toolset: 'code',
  aliases: ['Write'],
  annotations: { destructive: true, idempotent: true },
  capabilities: { fs_reach: { mode: 'write' } },
  permission: { kind: 'write', paths: (args) => [args.path] },
  async execute(args, ctx) {
    if (namesDirectory(args.path))
      return fail('input_invalid', `${args.path} ends with "/", which names a directory; give a file path.`);
    const resolution = await resolveWorkspacePath(fsReachOf(ctx), args.path);
    if (!resolution.ok) return resolution.failure;
    const target = resolution.resolved;
    const shownPath = displayPathOf(target);
    return withFileLock(ctx.session, [target.absolute], async () => {
      const opened = await openWorkspaceFile(fsReachOf(ctx), ctx.session, target.absolute, shownPath);
      if (!opened.ok && opened.failure.code !== 'not_found') return opened.failure;
      const stats = opened.ok ? opened.stats : undefined;
      let existing: Buffer | undefined;
      if (opened.ok) {
        try {
          if (opened.stats.isFile() && lastStamp(ctx.session, target.absolute) !== undefined)
            existing = await opened.handle.readFile();
        } finally {
          await opened.handle.close();
        }
      }
      let encoding: TextEncodingName = 'utf8';
      let text = args.content;
      let previousLines: string[] = [];
      if (stats !== undefined) {
        if (stats.isDirectory()) return fail('conflict', `${shownPath} is a directory.`);
        if (!stats.isFile()) return fail('conflict', `${shownPath} is not a regular file.`);
        if (lastStamp(ctx.session, target.absolute) === undefined) {
          return fail(
            'conflict',
            `${shownPath} already exists and this session has not read it; read_file it first, then write.`,
          );
        }
        const stale = checkStale(ctx.session, target.absolute, shownPath, stats);
        if (stale !== undefined) return stale;
        const decoded = decodeText(existing ?? Buffer.alloc(0));
        if (decoded.kind === 'text') {
          encoding = decoded.encoding;
          previousLines = contentLines(decoded.text);
          const ending = dominantLineEnding(splitLines(decoded.text).endings);
          if (ending !== '\n' && !text.includes('\r')) text = text.replace(/\n/g, ending);
        }
      }
      let written: Stats;
      try {
        ({ stats: written } = await writeFileAtomic(
          target.absolute,
          encodeText(text, encoding),
          stats === undefined ? undefined : stats.mode & 0o7777,
        ));
      } catch (error) {
        return fail('execution_failed', `Writing ${shownPath} failed: ${(error as Error).message}.`);
      }
      recordStamp(ctx.session, target.absolute, written);
      const summary: FileEditSummary = {
        path: shownPath,
        ...countChangedLines(previousLines, contentLines(text)),
      };
      const verb = stats === undefined ? 'Created' : 'Overwrote';
      return ok(
        `${verb} ${shownPath} (${Buffer.byteLength(text)} bytes): +${summary.linesAdded} -${summary.linesRemoved} lines.`,
        {
          structured: summary,
        },
      );
    });
  },
});
