import { defineTool, fail, ok } from '@quiver/types';
import { z } from 'zod';
import { decodeText, detectImageMimeType } from '../text/encoding.js';
import { splitLines } from '../text/line-endings.js';
import { recordStamp } from '../workspace/file-stamps.js';
import { openWorkspaceFile } from '../workspace/open-file.js';
import { resolveWorkspacePath } from '../workspace/resolve-path.js';
import { displayPathOf, fsReachOf } from './tool-support.js';

const readFileInput = z
  .object({
    path: z.string().describe('File to read, relative to the workspace root or absolute inside it.'),
    start_line: z.number().int().min(1).optional().describe('First line to return (1-based, inclusive).'),
    end_line: z.number().int().min(1).optional().describe('Last line to return (1-based, inclusive).'),
  })
  .refine(
    (args) =>
      args.start_line === undefined || args.end_line === undefined || args.start_line <= args.end_line,
    {
      message: 'start_line must not be greater than end_line',
    },
  );

export type ReadFileArgs = z.infer<typeof readFileInput>;

/** What read_file reports in `structured`; the reducer relies on it. */
export interface ReadFileStructured {
  path: string;
  totalLines: number;
  bytes: number;
  startLine: number;
  endLine: number;
}

export function numberLine(number: number, text: string): string {
  return `${String(number).padStart(6, ' ')}\t${text}`;
}

export function readFileHeader(
  path: string,
  totalLines: number,
  bytes: number,
  startLine: number,
  endLine: number,
): string {
  const shown = totalLines === 0 ? 'empty file' : `lines ${startLine}-${endLine} of ${totalLines}`;
  return `${path} (${shown}, ${bytes} bytes)`;
}

export const readFileTool = defineTool({
  name: 'read_file',
  title: 'Read file',
  description:
    'Read a text file with numbered lines, or an image (png, jpeg, gif, webp) as an attachment. Use start_line/end_line for a range. Binary files are refused.',
  input: readFileInput,
  toolset: 'code',
  aliases: ['Read'],
  annotations: { readOnly: true, idempotent: true },
  capabilities: { fs_reach: { mode: 'read' } },
  permission: { kind: 'read', paths: (args) => [args.path] },
  async execute(args, ctx) {
    const resolution = await resolveWorkspacePath(fsReachOf(ctx), args.path);
    if (!resolution.ok) return resolution.failure;
    const target = resolution.resolved;
    const shownPath = displayPathOf(target);
    const opened = await openWorkspaceFile(fsReachOf(ctx), ctx.session, target.absolute, shownPath);
    if (!opened.ok) return opened.failure;
    const { handle, stats } = opened;
    let buffer: Buffer;
    try {
      if (stats.isDirectory())
        return fail('conflict', `${shownPath} is a directory; use list_dir to see its entries.`);
      if (!stats.isFile()) return fail('conflict', `${shownPath} is not a regular file.`);
      buffer = await handle.readFile();
    } finally {
      await handle.close();
    }
    recordStamp(ctx.session, target.absolute, stats);
    const mimeType = detectImageMimeType(buffer);
    if (mimeType !== undefined) {
      return ok(`${shownPath}: ${mimeType} image, ${buffer.length} bytes (attached).`, {
        attachments: [{ type: 'image', mimeType, data: buffer.toString('base64'), name: shownPath }],
        structured: { path: shownPath, bytes: buffer.length, mimeType },
      });
    }
    const decoded = decodeText(buffer);
    if (decoded.kind === 'binary') {
      return fail(
        'conflict',
        `${shownPath} looks like a binary file (${decoded.reason}); read_file only shows text and images.`,
      );
    }
    const split = splitLines(decoded.text);
    const lines = split.lines[split.lines.length - 1] === '' ? split.lines.slice(0, -1) : split.lines;
    const totalLines = lines.length;
    const startLine = args.start_line ?? 1;
    if (totalLines > 0 && startLine > totalLines) {
      return fail(
        'input_invalid',
        `start_line ${startLine} is past the end of ${shownPath}, which has ${totalLines} lines.`,
      );
    }
    const lastWanted = Math.min(args.end_line ?? totalLines, totalLines);
    // Lines past the result budget would be trimmed by the runtime anyway; stop there and say so.
    const numbered: string[] = [];
    let size = 0;
    let endLine = startLine - 1;
    for (let number = startLine; number <= lastWanted; number += 1) {
      const line = numberLine(number, lines[number - 1] ?? '');
      if (size + line.length > ctx.budget && numbered.length > 0) break;
      numbered.push(line);
      size += line.length + 1;
      endLine = number;
    }
    const body = [readFileHeader(shownPath, totalLines, buffer.length, startLine, endLine), ...numbered];
    if (endLine < lastWanted) {
      body.push(
        `[Cut at the result budget after line ${endLine}; read on with start_line: ${endLine + 1}${args.end_line === undefined ? '' : `, end_line: ${lastWanted}`}.]`,
      );
    }
    const structured: ReadFileStructured = {
      path: shownPath,
      totalLines,
      bytes: buffer.length,
      startLine,
      endLine,
    };
    return ok(body.join('\n'), { structured });
  },
});
