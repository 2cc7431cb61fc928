import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes through a temp file in the same directory, fsyncs it and renames it over the target,
 * so readers see the old or the new content, never a torn one. Keeps the target's mode.
 * Returns the directories it had to create (outermost first), for rollback.
 */
export async function writeFileAtomic(target: string, content: Buffer, mode?: number): Promise<string[]> {
  const directory = path.dirname(target);
  const created = await makeDirectories(directory);
  const existingMode =
    mode ??
    (await stat(target).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    ));
  const temporary = path.join(directory, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', existingMode ?? 0o666);
  try {
    await handle.writeFile(content);
    if (existingMode !== undefined) await handle.chmod(existingMode);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return created;
}

async function makeDirectories(directory: string): Promise<string[]> {
  const missing: string[] = [];
  let current = directory;
  while (
    !(await stat(current).then(
      () => true,
      () => false,
    ))
  ) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  if (missing.length > 0) await mkdir(directory, { recursive: true });
  return missing;
}
