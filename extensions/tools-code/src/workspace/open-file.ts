import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { type FsReachHandle, fail, type SessionState, type ToolFailure } from '@quiver/types';
import { readDenialOf } from './read-deny.js';
import { openVerified, READ_FLAGS } from './verified-open.js';

export type OpenedFile = { ok: true; handle: FileHandle; stats: Stats } | { ok: false; failure: ToolFailure };

/**
 * Opens a resolved workspace path for reading and proves, before a byte is read, that the
 * descriptor is the file the path named (not what a swapped directory or symlink leads to) and
 * that no read deny covers it under another name. The caller closes the handle.
 */
export async function openWorkspaceFile(
  fsReach: FsReachHandle | undefined,
  session: SessionState,
  absolute: string,
  shownPath: string,
): Promise<OpenedFile> {
  const opened = await openVerified(absolute, READ_FLAGS);
  if (!opened.ok) {
    // A path through a regular file (`file/x`) names nothing, as stat says.
    if (opened.reason === 'missing' || opened.reason === 'not_directory')
      return { ok: false, failure: fail('not_found', `${shownPath} does not exist.`) };
    return {
      ok: false,
      failure: fail(
        'conflict',
        `${shownPath} was moved or replaced while it was being opened (${opened.message}); nothing was read. Try again.`,
      ),
    };
  }
  const rule = await readDenialOf(fsReach, session, absolute, opened.stats);
  if (rule !== undefined) {
    await opened.handle.close();
    return {
      ok: false,
      failure: fail(
        'not_permitted',
        `${shownPath} is withheld: it is the same file as one the read deny "${rule}" covers (another name or link).`,
        { rule },
      ),
    };
  }
  return opened;
}
