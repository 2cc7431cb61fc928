import { randomUUID } from 'node:crypto';
import { fstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The pseudo-terminals Quiver allocated for its own tools. A command that asks a person (trust,
 * review, a permission prompt) refuses when its stdin is one of them: on such a terminal the
 * model, not a person, types the answers.
 *
 * The list lives under the account's home as the password database names it, never under a
 * path read from the environment, which a command run by the model could point elsewhere. Each
 * entry is one file, so that several Quiver processes never rewrite each other's entries; an
 * entry whose Quiver process is gone no longer counts.
 */
export interface AllocatedTerminal {
  /** Device of the devpts instance the terminal lives in. */
  device: number;
  /** Inode of the terminal; absent when the whole devpts instance is Quiver's (a sandbox's own /dev/pts). */
  inode?: number;
  /** The Quiver process that allocated it, with its start time so a reused pid does not count. */
  ownerPid: number;
  ownerStart: string;
}

/** Where the list lives: `~/.local/state/quiver/terminals`, with `~` from the password database. */
export function allocatedTerminalsDirectory(): string {
  return path.join(os.userInfo().homedir, '.local', 'state', 'quiver', 'terminals');
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`): with the
 * pid it names one process, where a pid alone may name a later one that reused it. Undefined when
 * the process is gone or the system has no `/proc`.
 */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Records a terminal; the returned function removes the record again. */
export function recordAllocatedTerminal(
  terminal: Pick<AllocatedTerminal, 'device' | 'inode'>,
  directory = allocatedTerminalsDirectory(),
): () => void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const file = path.join(directory, `${process.pid}-${randomUUID()}.json`);
  const entry: AllocatedTerminal = {
    ...terminal,
    ownerPid: process.pid,
    ownerStart: processStartTicks(process.pid) ?? '',
  };
  writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

function readEntries(directory: string): AllocatedTerminal[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const entries: AllocatedTerminal[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const entry = JSON.parse(readFileSync(path.join(directory, name), 'utf8')) as AllocatedTerminal;
      if (processStartTicks(entry.ownerPid) === entry.ownerStart) entries.push(entry);
    } catch {
      // Half-written or removed meanwhile: the next entry still counts.
    }
  }
  return entries;
}

/** Whether descriptor `fd` (stdin by default) is a terminal some running Quiver allocated for its tools. */
export function isAllocatedTerminal(fd = 0, directory = allocatedTerminalsDirectory()): boolean {
  let stat: { dev: number; ino: number };
  try {
    const found = fstatSync(fd);
    if (!found.isCharacterDevice()) return false;
    stat = found;
  } catch {
    return false;
  }
  return readEntries(directory).some(
    (entry) => entry.device === stat.dev && (entry.inode === undefined || entry.inode === stat.ino),
  );
}

/** Device and inode of what `file` names (a `/proc/<pid>/fd/<n>` link is followed to the terminal). */
export function terminalIdentity(file: string): { device: number; inode: number; rdev: number } | undefined {
  try {
    const stat = statSync(file);
    if (!stat.isCharacterDevice()) return undefined;
    return { device: stat.dev, inode: stat.ino, rdev: stat.rdev };
  } catch {
    return undefined;
  }
}
