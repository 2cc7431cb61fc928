import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants, type FileHandle, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { DESCRIPTOR_PATHS, DIRECTORY_FLAGS, descriptorPath, openVerified } from './verified-open.js';

/**
 * Writes through a temp file in the same directory, fsyncs it and renames it over the target,
 * so readers see the old or the new content, never a torn one. Keeps the target's mode.
 * The temp file is created and renamed through a descriptor of the verified parent directory,
 * so swapping a directory for a symlink after the check cannot move the write elsewhere; the
 * rename replaces the name, so a hard link or symlink at the target is never written through.
 * Returns the directories it had to create (outermost first, for rollback) and the new file's stat.
 */
export async function writeFileAtomic(
  target: string,
  content: Buffer,
  mode?: number,
): Promise<{ created: string[]; stats: Stats }> {
  const name = path.basename(target);
  const { directory, created } = await openDirectoryCreating(path.dirname(target));
  try {
    const base = directoryBase(directory, path.dirname(target));
    const existingMode =
      mode ??
      (await lstat(`${base}/${name}`).then(
        (stats) => (stats.isFile() ? stats.mode & 0o7777 : undefined),
        () => undefined,
      ));
    const temporary = `${base}/.${name}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      existingMode ?? 0o666,
    );
    try {
      await handle.writeFile(content);
      if (existingMode !== undefined) await handle.chmod(existingMode);
      await handle.sync();
      await rename(temporary, `${base}/${name}`);
      // Stat'ed through the descriptor after the rename (which changes ctime), never by name.
      return { created, stats: await handle.stat() };
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}

/** Removes the file named `target` through a descriptor of its verified parent directory. */
export async function removeFileVerified(target: string): Promise<void> {
  const parent = path.dirname(target);
  const opened = await openVerified(parent, DIRECTORY_FLAGS);
  if (!opened.ok)
    throw Object.assign(new Error(opened.message), opened.reason === 'missing' ? { code: 'ENOENT' } : {});
  try {
    await unlink(`${directoryBase(opened.handle, parent)}/${path.basename(target)}`);
  } finally {
    await opened.handle.close();
  }
}

function directoryBase(directory: FileHandle, expected: string): string {
  return DESCRIPTOR_PATHS ? descriptorPath(directory) : expected;
}

/**
 * Opens `directory`, creating what is missing one level at a time, each new directory made and
 * opened through its verified parent's descriptor.
 */
async function openDirectoryCreating(
  directory: string,
): Promise<{ directory: FileHandle; created: string[] }> {
  const missing: string[] = [];
  let current = directory;
  let handle: FileHandle;
  for (;;) {
    const opened = await openVerified(current, DIRECTORY_FLAGS);
    if (opened.ok) {
      handle = opened.handle;
      break;
    }
    const parent = path.dirname(current);
    if (opened.reason !== 'missing' || parent === current) throw new Error(opened.message);
    missing.unshift(path.basename(current));
    current = parent;
  }
  const created: string[] = [];
  try {
    for (const part of missing) {
      const next = path.join(current, part);
      const via = `${directoryBase(handle, current)}/${part}`;
      const made = await mkdir(via).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
          return false;
        },
      );
      if (made) created.push(next);
      const opened = await openVerified(next, DIRECTORY_FLAGS, { via });
      if (!opened.ok) throw new Error(opened.message);
      await handle.close();
      handle = opened.handle;
      current = next;
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return { directory: handle, created };
}
