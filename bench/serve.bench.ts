import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { quantile } from './measure.js';

/**
 * What `quiver serve` costs per call: an SDK client calling a cheap first-party tool
 * (terminal_list, which reads no file and starts no process) through `quiver serve` over stdio, against the same SDK client calling
 * server-everything's `echo` over stdio directly. Both one call at a time, interleaved in rounds
 * that alternate which side goes first, so load from elsewhere hits both alike. The serve side
 * runs the whole call lifecycle: gates, permission rules, hooks, reducers, the result budget and
 * the session event log.
 *
 * `QUIVER_BEFORE_BIN=<path to another build's apps/cli/dist/bin.js>` adds that build's serve as a
 * third side of the same rounds, so a change is measured before and after in one run.
 */

const TARGET_RATIO = 1.5;
const ROUNDS = 16;
const CALLS_PER_ROUND = 150;
/**
 * Calls each side makes before measuring. `serve` runs far more code per call than the echo server,
 * and V8 takes thousands of calls to optimize it: with 200, the rounds measured a process still
 * warming up (1.75 where one warmed by 3,000 calls gave 1.35, in one run each on a quiet machine).
 */
const WARMUP_CALLS = 5_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const QUIVER_BIN = process.env.QUIVER_BIN ?? path.resolve(here, '../apps/cli/dist/bin.js');
const BEFORE_BIN = process.env.QUIVER_BEFORE_BIN;
const require = createRequire(import.meta.url);
const everything = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

type Call = () => Promise<unknown>;
type Side = 'raw' | 'serve' | 'before';

function serveWorkspace(): { dir: string; xdg: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-serve-bench-'));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: bench\n');
  writeFileSync(
    path.join(dir, 'personalities/bench.yaml'),
    'id: bench\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n',
  );
  return { dir, xdg: mkdtempSync(path.join(os.tmpdir(), 'quiver-serve-bench-xdg-')) };
}

async function connect(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore', ...options }), {
    timeout: 120_000,
  });
  return client;
}

function checked(client: Client, name: string, args: Record<string, unknown>): Call {
  return async () => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  };
}

export async function run(): Promise<void> {
  // One workspace each: two serve processes never share a data directory (grant store, log).
  const workspaces = [serveWorkspace(), serveWorkspace()];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const raw = await connect(process.execPath, [everything, 'stdio']);
  const serve = (bin: string, workspace: { dir: string; xdg: string }) =>
    connect(process.execPath, [bin, '--trust-project', 'serve'], {
      cwd: workspace.dir,
      env: { ...env, XDG_DATA_HOME: workspace.xdg, NO_COLOR: '1' },
    });
  const served = await serve(QUIVER_BIN, workspaces[0] as { dir: string; xdg: string });
  const before =
    BEFORE_BIN === undefined
      ? undefined
      : await serve(BEFORE_BIN, workspaces[1] as { dir: string; xdg: string });
  const sides: Partial<Record<Side, Call>> = {
    raw: checked(raw, 'echo', { message: 'bench' }),
    serve: checked(served, 'terminal_list', {}),
    ...(before ? { before: checked(before, 'terminal_list', {}) } : {}),
  };
  const names = Object.keys(sides) as Side[];
  try {
    for (let call = 0; call < WARMUP_CALLS; call++) for (const side of names) await sides[side]?.();
    globalThis.gc?.();
    const samples: Partial<Record<Side, number[]>> = {};
    const ratios: Partial<Record<Side, number[]>> = {};
    for (let round = 0; round < ROUNDS; round++) {
      // Each side goes first, last and in between equally often, so load hits all alike.
      const order = names.map((_, index) => names[(index + round) % names.length] as Side);
      if (round % 2 === 1) order.reverse();
      const roundSamples: Partial<Record<Side, number[]>> = {};
      for (const side of order) {
        const taken: number[] = [];
        for (let call = 0; call < CALLS_PER_ROUND; call++) {
          const started = performance.now();
          await sides[side]?.();
          taken.push(performance.now() - started);
        }
        roundSamples[side] = taken;
        (samples[side] ??= []).push(...taken);
      }
      for (const side of names)
        (ratios[side] ??= []).push(
          quantile(roundSamples[side] ?? [], 0.5) / quantile(roundSamples.raw ?? [], 0.5),
        );
    }
    const labels: Record<Side, string> = {
      raw: 'SDK client → stdio echo server (server-everything echo)',
      serve: 'SDK client → quiver serve → terminal_list',
      before: `SDK client → quiver serve (${BEFORE_BIN}) → terminal_list`,
    };
    const rawP50 = quantile(samples.raw ?? [], 0.5);
    console.table(
      names.map((side) => ({
        side: labels[side],
        'p50 (ms)': quantile(samples[side] ?? [], 0.5).toFixed(3),
        'p90 (ms)': quantile(samples[side] ?? [], 0.9).toFixed(3),
        'p50 / raw': (quantile(samples[side] ?? [], 0.5) / rawP50).toFixed(3),
      })),
    );
    const load = os.loadavg()[0]?.toFixed(1);
    for (const side of names.filter((name) => name !== 'raw')) {
      const ratio = quantile(samples[side] ?? [], 0.5) / rawP50;
      const spread = ratios[side] ?? [];
      console.log(
        `${side} / raw p50: ${ratio.toFixed(3)} (per round ${quantile(spread, 0).toFixed(2)}–${quantile(spread, 1).toFixed(2)}); ` +
          `target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}; load average ${load}`,
      );
    }
  } finally {
    await served.close();
    await before?.close();
    await raw.close();
    for (const workspace of workspaces) {
      rmSync(workspace.dir, { recursive: true, force: true });
      rmSync(workspace.xdg, { recursive: true, force: true });
    }
  }
}
