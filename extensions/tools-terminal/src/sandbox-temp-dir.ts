import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'quiver-terminal-';
/** `quiver-terminal-<owner pid>-<random>`: the owner's pid says whether the directory is still in use. */
const OWNED = /^quiver-terminal-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * A new temporary directory for one sandboxed command, named after this process. A process
 * killed with SIGKILL cannot remove its directories, so every new one first removes those whose
 * owner is no longer running.
 */
export async function sandboxTempDir(directory = os.tmpdir()): Promise<string> {
  await removeStaleSandboxTempDirs(directory);
  return mkdtemp(path.join(directory, `${PREFIX}${process.pid}-`));
}

/** Removes the sandbox temp directories of processes that are gone; never fails the command. */
export async function removeStaleSandboxTempDirs(
  directory: string,
  running: (pid: number) => boolean = isRunning,
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const owner = Number(OWNED.exec(name)?.[1]);
      if (!owner || owner === process.pid || running(owner)) return;
      await rm(path.join(directory, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process whose parent has not reaped it yet still answers signal 0.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
