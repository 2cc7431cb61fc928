import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose command line contains `marker`. */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export function uniqueMarker(label: string): string {
  return `quiver-${label}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Waits (up to 15 s, for loaded CI machines) until `count` processes carry `marker`. */
export async function waitForProcesses(marker: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (processesWithMarker(marker).length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(
    `expected ${count} processes marked ${marker}, found ${processesWithMarker(marker).length}`,
  );
}
