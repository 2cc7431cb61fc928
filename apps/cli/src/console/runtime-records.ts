import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { consoleRuntimeDirectory } from '@quiver/permissions';
import { launchEnvironment } from '../launch/launch-environment.js';

/** What a running console writes for the person's `quiver console`: where it is and its secret. */
export interface ConsoleRecord {
  pid: number;
  /** `serve (stdio)`, `serve (http)` or `rpc`. */
  kind: string;
  url: string;
  token: string;
  workspace: string;
  startedAt: number;
}

/** The directory of every running console of this user (on the protected list, reads denied). */
export function consoleDirectory(): string {
  return consoleRuntimeDirectory(launchEnvironment());
}

export function newConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Writes this process's record, readable by its user only, and returns how to remove it. The
 * directory is created private too: another user on the machine must not learn the secret.
 */
export function writeConsoleRecord(record: ConsoleRecord, directory = consoleDirectory()): () => void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  const file = path.join(directory, `${record.pid}.json`);
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    rmSync(file, { force: true });
  };
  process.once('exit', remove);
  return () => {
    process.off('exit', remove);
    remove();
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The records of consoles whose process still runs; a record left by one that died is removed. */
export function runningConsoles(directory = consoleDirectory()): ConsoleRecord[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const records: ConsoleRecord[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    const file = path.join(directory, name);
    let record: ConsoleRecord;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as ConsoleRecord;
    } catch {
      continue;
    }
    if (typeof record.pid !== 'number' || typeof record.url !== 'string' || typeof record.token !== 'string')
      continue;
    if (!alive(record.pid)) {
      rmSync(file, { force: true });
      continue;
    }
    records.push(record);
  }
  return records.sort((a, b) => b.startedAt - a.startedAt);
}
