import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * What `quiver serve` costs per call: an SDK client calling a cheap first-party tool
 * (terminal_list, which reads no file and starts no process) through `quiver serve` over stdio, against the same SDK client calling
 * server-everything's `echo` over stdio directly. Both one call at a time, interleaved in rounds
 * that alternate which side goes first, so load from elsewhere hits both alike. The serve side
 * runs the whole call lifecycle: gates, permission rules, hooks, reducers, the result budget and
 * the session event log.
 */

const TARGET_RATIO = 1.5;
const ROUNDS = 8;
const CALLS_PER_ROUND = 150;
const WARMUP_CALLS = 200;
const here = path.dirname(fileURLToPath(import.meta.url));
const QUIVER_BIN = path.resolve(here, '../apps/cli/dist/bin.js');
const require = createRequire(import.meta.url);
const everything = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

type Call = () => Promise<unknown>;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

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
  const workspace = serveWorkspace();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const raw = await connect(process.execPath, [everything, 'stdio']);
  const served = await connect(process.execPath, [QUIVER_BIN, '--trust-project', 'serve'], {
    cwd: workspace.dir,
    env: { ...env, XDG_DATA_HOME: workspace.xdg, NO_COLOR: '1' },
  });
  const sides: Record<'raw' | 'serve', Call> = {
    raw: checked(raw, 'echo', { message: 'bench' }),
    serve: checked(served, 'terminal_list', {}),
  };
  try {
    for (let call = 0; call < WARMUP_CALLS; call++) {
      await sides.raw();
      await sides.serve();
    }
    globalThis.gc?.();
    const samples = { raw: [] as number[], serve: [] as number[] };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['raw', 'serve'] as const) : (['serve', 'raw'] as const);
      const roundSamples = { raw: [] as number[], serve: [] as number[] };
      for (const side of order) {
        for (let call = 0; call < CALLS_PER_ROUND; call++) {
          const started = performance.now();
          await sides[side]();
          roundSamples[side].push(performance.now() - started);
        }
      }
      samples.raw.push(...roundSamples.raw);
      samples.serve.push(...roundSamples.serve);
      ratios.push(quantile(roundSamples.serve, 0.5) / quantile(roundSamples.raw, 0.5));
    }
    const p50 = { raw: quantile(samples.raw, 0.5), serve: quantile(samples.serve, 0.5) };
    const ratio = p50.serve / p50.raw;
    console.table([
      {
        side: 'SDK client → stdio echo server (server-everything echo)',
        'p50 (ms)': p50.raw.toFixed(3),
        'p90 (ms)': quantile(samples.raw, 0.9).toFixed(3),
      },
      {
        side: 'SDK client → quiver serve → terminal_list',
        'p50 (ms)': p50.serve.toFixed(3),
        'p90 (ms)': quantile(samples.serve, 0.9).toFixed(3),
      },
    ]);
    console.log(
      `serve / raw p50: ${ratio.toFixed(3)} (per round ${quantile(ratios, 0).toFixed(2)}–${quantile(ratios, 1).toFixed(2)}); ` +
        `target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}; load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
  } finally {
    await served.close();
    await raw.close();
    rmSync(workspace.dir, { recursive: true, force: true });
    rmSync(workspace.xdg, { recursive: true, force: true });
  }
}
