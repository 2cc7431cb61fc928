import type { Stats } from 'node:fs';
import { type FsReachHandle, fail, type SessionState, type ToolFailure } from '@quiver/types';
import { decodeText, type TextEncodingName } from '../text/encoding.js';
import { openWorkspaceFile } from './open-file.js';

export interface LoadedTextFile {
  text: string;
  encoding: TextEncodingName;
  stats: Stats;
}

export type TextFileLoad = { ok: true; file: LoadedTextFile } | { ok: false; failure: ToolFailure };

/** Reads a file meant to be edited as text: refuses directories, binaries and missing files with data. */
export async function loadTextFile(
  fsReach: FsReachHandle | undefined,
  session: SessionState,
  absolute: string,
  displayPath: string,
): Promise<TextFileLoad> {
  const opened = await openWorkspaceFile(fsReach, session, absolute, displayPath);
  if (!opened.ok) return opened;
  const { handle, stats } = opened;
  try {
    if (stats.isDirectory())
      return { ok: false, failure: fail('conflict', `${displayPath} is a directory, not a file.`) };
    if (!stats.isFile())
      return { ok: false, failure: fail('conflict', `${displayPath} is not a regular file.`) };
    const decoded = decodeText(await handle.readFile());
    if (decoded.kind === 'binary') {
      return {
        ok: false,
        failure: fail(
          'conflict',
          `${displayPath} looks binary (${decoded.reason}); it cannot be edited as text.`,
        ),
      };
    }
    return { ok: true, file: { text: decoded.text, encoding: decoded.encoding, stats } };
  } finally {
    await handle.close();
  }
}
