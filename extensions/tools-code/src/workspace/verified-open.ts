import type { Stats } from 'node:fs';
import { constants, type FileHandle, open, readlink, stat } from 'node:fs/promises';
import { resolveRealPath } from '@quiver/types';

/**
 * Where a descriptor's file lives now, as the kernel knows it (`/proc/self/fd/N`). A name can be
 * swapped between a check and an open; the descriptor cannot, so confinement is judged on this.
 */
export const DESCRIPTOR_PATHS = process.platform === 'linux';

export function descriptorPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

export type VerifiedOpen =
  | { ok: true; handle: FileHandle; stats: Stats }
  | { ok: false; reason: 'missing' | 'moved' | 'not_directory' | 'symlink'; message: string };

/**
 * Opens `expected` (a real absolute path: no symlink, no `..`) and proves the descriptor is that
 * file: on Linux the descriptor's own path must equal it, so a directory swapped for a symlink
 * between resolution and open is refused instead of followed. Elsewhere the descriptor's
 * (device, inode) must equal what the name resolves to after the open (see docs/security-model.md).
 * `via` opens another name for the same file (a path through a verified directory descriptor).
 */
export async function openVerified(
  expected: string,
  flags: number,
  options: { via?: string; mode?: number } = {},
): Promise<VerifiedOpen> {
  let handle: FileHandle;
  try {
    handle = await open(options.via ?? expected, flags | constants.O_NOFOLLOW, options.mode);
  } catch (error) {
    return openFailure(expected, error);
  }
  try {
    const stats = await handle.stat();
    const verified = await verifyHandle(handle, expected, stats);
    if (verified !== undefined) {
      await handle.close();
      return { ok: false, reason: 'moved', message: verified };
    }
    return { ok: true, handle, stats };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** Undefined when the open descriptor is `expected`; otherwise why it is not. */
export async function verifyHandle(
  handle: FileHandle,
  expected: string,
  stats: Stats,
): Promise<string | undefined> {
  if (DESCRIPTOR_PATHS) {
    const actual = await readlink(descriptorPath(handle)).catch(() => undefined);
    if (actual === undefined)
      return `the real path of the opened ${expected} could not be read from /proc/self/fd (is /proc mounted?)`;
    return actual === expected
      ? undefined
      : `${expected} was moved while it was opened (it is now ${actual})`;
  }
  const real = resolveRealPath(expected);
  const named = real.path === expected ? await stat(expected).catch(() => undefined) : undefined;
  if (named === undefined || named.dev !== stats.dev || named.ino !== stats.ino)
    return `${expected} was moved while it was opened`;
  return undefined;
}

function openFailure(expected: string, error: unknown): VerifiedOpen {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, reason: 'missing', message: `${expected} does not exist` };
  if (code === 'ELOOP')
    return { ok: false, reason: 'symlink', message: `${expected} became a symlink while it was opened` };
  if (code === 'ENOTDIR')
    return { ok: false, reason: 'not_directory', message: `${expected} is not a directory` };
  throw error;
}

/** Non-blocking, so a FIFO planted in the workspace cannot hang the open; no effect on regular files. */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;
