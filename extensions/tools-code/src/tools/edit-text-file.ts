import type { Stats } from 'node:fs';
import { fail, ok, type ToolContext, type ToolFailure, type ToolResult } from '@quiver/types';
import { encodeText } from '../text/encoding.js';
import { joinLines, type SplitText, splitLines } from '../text/line-endings.js';
import type { LineCounts } from '../text/string-edit.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { changedSince, checkStale, recordStamp, stampOf, withFileLock } from '../workspace/file-stamps.js';
import { resolveWorkspacePath } from '../workspace/resolve-path.js';
import { loadTextFile } from '../workspace/text-file.js';
import { displayPathOf, type FileEditSummary, fsReachOf } from './tool-support.js';

export type TextTransform = (
  split: SplitText,
) => { ok: true; split: SplitText; counts: LineCounts; note?: string } | { ok: false; failure: ToolFailure };

/**
 * The shared read-modify-write of edit_file and multi_edit: resolve inside the workspace, lock,
 * refuse stale content, transform lines in memory, write back atomically in the same encoding,
 * line endings and mode.
 */
export async function editTextFile(
  ctx: ToolContext,
  rawPath: string,
  transform: TextTransform,
): Promise<ToolResult> {
  const resolution = await resolveWorkspacePath(fsReachOf(ctx), rawPath);
  if (!resolution.ok) return resolution.failure;
  const target = resolution.resolved;
  const shownPath = displayPathOf(target);
  return withFileLock(ctx.session, [target.absolute], async () => {
    const loaded = await loadTextFile(fsReachOf(ctx), ctx.session, target.absolute, shownPath);
    if (!loaded.ok) return loaded.failure;
    const stale = checkStale(ctx.session, target.absolute, shownPath, loaded.file.stats);
    if (stale !== undefined) return stale;
    const transformed = transform(splitLines(loaded.file.text));
    if (!transformed.ok) return transformed.failure;
    const content = encodeText(joinLines(transformed.split), loaded.file.encoding);
    if ((await changedSince(target.absolute, stampOf(loaded.file.stats))) !== undefined) {
      return fail(
        'stale_write',
        `${shownPath} changed on disk while the edit was being prepared; read it again, then redo the edit.`,
      );
    }
    let written: Stats;
    try {
      ({ stats: written } = await writeFileAtomic(target.absolute, content, loaded.file.stats.mode & 0o7777));
    } catch (error) {
      return fail(
        'execution_failed',
        `Writing ${shownPath} failed: ${(error as Error).message}. The file was not changed.`,
      );
    }
    recordStamp(ctx.session, target.absolute, written);
    const summary: FileEditSummary = { path: shownPath, ...transformed.counts };
    const note = transformed.note ? ` ${transformed.note}` : '';
    return ok(`Edited ${shownPath}: +${summary.linesAdded} -${summary.linesRemoved} lines.${note}`, {
      structured: summary,
    });
  });
}
