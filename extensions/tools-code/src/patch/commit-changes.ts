import type { Stats } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { removeFileVerified, writeFileAtomic } from '../workspace/atomic-write.js';
import { changedSince, type FileStamp } from '../workspace/file-stamps.js';

/** The desired end state of one file, with what it was before (for rollback). */
export interface PendingFileState {
  absolute: string;
  /** Content before the change; undefined when the file did not exist. */
  before: Buffer | undefined;
  beforeMode: number | undefined;
  /** Stat of the file when the plan read it; undefined when it did not exist. */
  beforeStamp: FileStamp | undefined;
  /** Content after the change; undefined deletes the file. */
  after: Buffer | undefined;
  afterMode: number | undefined;
}

export type CommitOutcome =
  | { ok: true; written: Map<string, Stats> }
  | { ok: false; failedPath: string; error: unknown; rollbackErrors: string[] }
  | { ok: false; changedPath: string };

/** The first file that changed on disk since the plan read it (or appeared, for a new file). */
async function firstChangedFile(changes: readonly PendingFileState[]): Promise<string | undefined> {
  for (const change of changes) {
    if ((await changedSince(change.absolute, change.beforeStamp)) !== undefined) return change.absolute;
  }
  return undefined;
}

/**
 * Writes every change, each atomically. When one fails, the files already written are put back
 * (restored or removed) in reverse order, and directories created on the way are removed.
 */
export async function commitChanges(changes: readonly PendingFileState[]): Promise<CommitOutcome> {
  const changedPath = await firstChangedFile(changes);
  if (changedPath !== undefined) return { ok: false, changedPath };
  const done: Array<{ change: PendingFileState; createdDirectories: string[] }> = [];
  const written = new Map<string, Stats>();
  for (const change of changes) {
    try {
      if (change.after === undefined) {
        if (change.before !== undefined) await removeFileVerified(change.absolute);
        done.push({ change, createdDirectories: [] });
      } else {
        const { created, stats } = await writeFileAtomic(change.absolute, change.after, change.afterMode);
        written.set(change.absolute, stats);
        done.push({ change, createdDirectories: created });
      }
    } catch (error) {
      const rollbackErrors = await rollBack(done);
      return { ok: false, failedPath: change.absolute, error, rollbackErrors };
    }
  }
  return { ok: true, written };
}

async function rollBack(
  done: ReadonlyArray<{ change: PendingFileState; createdDirectories: string[] }>,
): Promise<string[]> {
  const errors: string[] = [];
  for (const { change, createdDirectories } of [...done].reverse()) {
    try {
      if (change.before === undefined) await removeFileVerified(change.absolute).catch(ignoreMissing);
      else await writeFileAtomic(change.absolute, change.before, change.beforeMode);
      for (const directory of [...createdDirectories].reverse())
        await rmdir(directory).catch(() => undefined);
    } catch (error) {
      errors.push(`${change.absolute}: ${(error as Error).message}`);
    }
  }
  return errors;
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
