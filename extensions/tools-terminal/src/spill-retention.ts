import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Spill files stay long enough for the model to read them later in a day's sessions. */
export const SPILL_RETENTION_MS = 24 * 60 * 60 * 1000;

const SPILL_FILE = /^(?:output|shell-\d+)-.*\.log$/;

/** Deletes this package's spill files older than `maxAgeMs`; never fails the command that spilled. */
export async function pruneSpillFiles(
  directory: string,
  maxAgeMs = SPILL_RETENTION_MS,
  now = Date.now(),
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => SPILL_FILE.test(name))
      .map(async (name) => {
        const file = path.join(directory, name);
        try {
          if (now - (await stat(file)).mtimeMs > maxAgeMs) await unlink(file);
        } catch {
          // Removed concurrently, or not ours to remove.
        }
      }),
  );
}
