import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { consoleRuntimeDirectory } from '@quiver/permissions';
import { processStartTicks } from '@quiver/wiring';
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
  /**
   * When the process started, in clock ticks since boot (Linux): with `pid` it names the one
   * process that wrote the record. A record left by a process that was killed must not count for
   * a later process that reuses its pid. Absent in records of earlier versions and without `/proc`.
   */
  processStart?: string;
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
export function writeConsoleRecord(
  record: Omit<ConsoleRecord, 'processStart'>,
  directory = consoleDirectory(),
): () => void {
  const start = processStartTicks(record.pid);
  const written: ConsoleRecord = start === undefined ? record : { ...record, processStart: start };
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  const file = path.join(directory, `${record.pid}.json`);
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(written)}\n`, { mode: 0o600, flag: 'wx' });
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

/** The wall-clock time (ms) at which the system booted, from `/proc/stat`; undefined without it. */
function bootTimeMs(): number | undefined {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    return btime === undefined ? undefined : Number(btime) * 1000;
  } catch {
    return undefined;
  }
}

/** Linux reports process start times in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Whether `record` was written by the process that now has its pid. A console killed before it
 * could remove its record leaves it behind, and pids are reused (32,768 of them by default): a
 * later process with the same pid, such as a person's shell, must not pass for a console server.
 * The record names its process by start time; a record of an earlier version, without one, is
 * judged by its own time, which can not be earlier than the start of the process that wrote it.
 */
export function writtenByRunningProcess(record: ConsoleRecord): boolean {
  const start = processStartTicks(record.pid);
  if (start === undefined) return alive(record.pid);
  if (record.processStart !== undefined) return record.processStart === start;
  const boot = bootTimeMs();
  if (boot === undefined) return true;
  // btime is whole seconds and the wall clock may have been set since boot: allow two seconds.
  return boot + (Number(start) / TICKS_PER_SECOND) * 1000 <= record.startedAt + 2_000;
}

/** The record in `directory` written by running process `pid`, or undefined. */
export function consoleRecordOf(pid: number, directory = consoleDirectory()): ConsoleRecord | undefined {
  const record = readRecord(path.join(directory, `${pid}.json`));
  return record !== undefined && record.pid === pid && writtenByRunningProcess(record) ? record : undefined;
}

function readRecord(file: string): ConsoleRecord | undefined {
  let record: ConsoleRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as ConsoleRecord;
  } catch {
    return undefined;
  }
  if (typeof record.pid !== 'number' || typeof record.url !== 'string' || typeof record.token !== 'string')
    return undefined;
  return record;
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
    const record = readRecord(file);
    if (record === undefined) continue;
    if (!writtenByRunningProcess(record)) {
      rmSync(file, { force: true });
      continue;
    }
    records.push(record);
  }
  return records.sort((a, b) => b.startedAt - a.startedAt);
}
