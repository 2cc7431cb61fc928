import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { QuiverError } from '@quiver/types';

export interface FileLockOptions {
  /** How long to wait for another process to finish its update; default 5 s. */
  waitMs?: number;
  /** A lock older than this is taken over even if its holder still runs; default 30 s. */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread: the stores that take this lock answer synchronously. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the lock's holder died without removing it, or has held it implausibly long; the
 * lock is then moved aside. A lock whose holder has not yet written its pid is young, not stale.
 */
function takeOverIfStale(lock: string, staleMs: number): boolean {
  let holder: number;
  let age: number;
  try {
    holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return true;
  }
  const dead = Number.isInteger(holder) && holder > 0 && holder !== process.pid && !isRunning(holder);
  if (!dead && age < staleMs) return false;
  try {
    // Renamed before removal, so that of several processes finding it stale only one removes it.
    const aside = `${lock}.${process.pid}.stale`;
    renameSync(lock, aside);
    rmSync(aside, { force: true });
  } catch {}
  return true;
}

/**
 * Runs `update` while holding `<file>.lock`, created exclusively: a read-modify-write of `file`
 * by another process cannot interleave with this one, so neither loses the other's change.
 * Throws a `conflict` error when the lock stays taken longer than `waitMs`.
 */
export function withFileLock<T>(file: string, update: () => T, options: FileLockOptions = {}): T {
  const lock = `${file}.lock`;
  const waitMs = options.waitMs ?? 5_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + waitMs;
  let delay = 1;
  for (;;) {
    try {
      const descriptor = openSync(lock, 'wx', 0o600);
      try {
        writeSync(descriptor, `${process.pid}\n`);
      } finally {
        closeSync(descriptor);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (takeOverIfStale(lock, staleMs)) continue;
    if (Date.now() >= deadline) {
      throw new QuiverError('conflict', `${file} is locked by another Quiver process (${lock}).`, {
        fix: `Wait for the other process to finish; if none runs, delete ${lock}.`,
        details: { file, lock },
      });
    }
    pause(delay);
    delay = Math.min(delay * 2, 25);
  }
  try {
    return update();
  } finally {
    rmSync(lock, { force: true });
  }
}
