import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The environment variable that tags every process of one run, so that it can be found after setsid. */
export const RUN_MARKER_VARIABLE = 'QUIVER_TERMINAL_RUN';

export interface RunIdentity {
  /** Pid of the spawned leader; it leads its own process group. */
  pid: number;
  /** Value of RUN_MARKER_VARIABLE in the run's environment. */
  marker: string;
  /** Identities of the run's output pipes (`socket:[inode]`): whoever still holds one belongs to the run. */
  pipes?: readonly string[];
}

interface ProcessStat {
  pid: number;
  parentPid: number;
  groupId: number;
  zombie: boolean;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may itself contain spaces and parentheses.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, parentPid: Number(fields[1]), groupId: Number(fields[2]), zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

function carriesMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`${RUN_MARKER_VARIABLE}=${marker}\0`);
  } catch {
    return false;
  }
}

function holdsPipe(pid: number, pipes: ReadonlySet<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return pipes.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function listProcesses(): ProcessStat[] {
  const processes: ProcessStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) processes.push(stat);
  }
  return processes;
}

/**
 * Every live process that belongs to a run: its process group, the descendants of its leader
 * (even in other groups), anything still carrying the run's marker (daemons that called setsid
 * and were re-parented) and anything holding the run's output pipes (even with a clean environment).
 */
export function findRunProcesses(run: RunIdentity): number[] {
  const processes = listProcesses().filter((stat) => !stat.zombie && stat.pid !== process.pid);
  const childrenOf = new Map<number, number[]>();
  for (const stat of processes) {
    const siblings = childrenOf.get(stat.parentPid) ?? [];
    siblings.push(stat.pid);
    childrenOf.set(stat.parentPid, siblings);
  }
  const found = new Set<number>();
  const pending = [run.pid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    for (const child of childrenOf.get(pid) ?? []) {
      if (!found.has(child)) {
        found.add(child);
        pending.push(child);
      }
    }
  }
  const pipes = new Set(run.pipes ?? []);
  for (const stat of processes) {
    if (found.has(stat.pid)) continue;
    const belongs =
      stat.pid === run.pid ||
      stat.groupId === run.pid ||
      carriesMarker(stat.pid, run.marker) ||
      (pipes.size > 0 && holdsPipe(stat.pid, pipes));
    if (belongs) found.add(stat.pid);
  }
  return [...found];
}

function signalAll(run: RunIdentity, pids: readonly number[], signal: NodeJS.Signals): void {
  try {
    process.kill(-run.pid, signal);
  } catch {
    // The group is already gone.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Exited in the meantime.
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends a run for good: SIGTERM to the group and every process found, then SIGKILL to whatever
 * is left after the grace period, repeated until nothing of the run is alive.
 */
export async function killRun(run: RunIdentity, graceMs = 2_000): Promise<void> {
  signalAll(run, findRunProcesses(run), 'SIGTERM');
  const deadline = Date.now() + graceMs;
  // A process caught mid-fork or mid-exec can be missing from one /proc scan: only two empty
  // scans in a row mean the run is gone.
  let emptyScans = 0;
  while (Date.now() < deadline) {
    const found = findRunProcesses(run);
    emptyScans = found.length === 0 ? emptyScans + 1 : 0;
    if (emptyScans >= 2) return;
    if (found.length > 0) signalAll(run, found, 'SIGTERM');
    await delay(50);
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const survivors = findRunProcesses(run);
    if (survivors.length === 0) return;
    signalAll(run, survivors, 'SIGKILL');
    await delay(20);
  }
}
