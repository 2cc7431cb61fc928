import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { fail, type ToolFailure } from '@quiver/types';
import { decodeText, type TextEncodingName } from '../text/encoding.js';

export interface LoadedTextFile {
  text: string;
  encoding: TextEncodingName;
  stats: Stats;
}

export type TextFileLoad = { ok: true; file: LoadedTextFile } | { ok: false; failure: ToolFailure };

/** Reads a file meant to be edited as text: refuses directories, binaries and missing files with data. */
export async function loadTextFile(absolute: string, displayPath: string): Promise<TextFileLoad> {
  let stats: Stats;
  try {
    stats = await stat(absolute);
  } catch {
    return { ok: false, failure: fail('not_found', `${displayPath} does not exist.`) };
  }
  if (stats.isDirectory())
    return { ok: false, failure: fail('conflict', `${displayPath} is a directory, not a file.`) };
  if (!stats.isFile())
    return { ok: false, failure: fail('conflict', `${displayPath} is not a regular file.`) };
  const decoded = decodeText(await readFile(absolute));
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
}
