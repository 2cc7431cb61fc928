import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export { median, quantile } from '../measure.js';

/** Wall time of one process from spawn to exit, in milliseconds; throws when it fails. */
export function timedRun(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const taken = performance.now() - started;
      if (code === 0) resolve(taken);
      else reject(new Error(`${[command, ...args].join(' ')} exited with ${code}: ${stderr.slice(0, 400)}`));
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter((text) => text.trim() !== '')
        .map(Number),
    );
  } catch {
    return [];
  }
}

function rssKiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Resident memory (MiB) of `pid` and its descendants, leaving out every process whose command
 * line contains one of `exclude` (and that process's own descendants): the bridged servers.
 */
export function treeRssMiB(pid: number, exclude: readonly string[] = []): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    const line = commandLine(next);
    if (next !== pid && exclude.some((part) => line.includes(part))) continue;
    total += rssKiB(next);
    pending.push(...children(next));
  }
  return total / 1024;
}

/** Busy loops beside the benchmark: the "loaded machine" run. */
export function startCpuHogs(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

export function environment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
