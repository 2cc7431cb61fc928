// Every start-up, gateway and memory figure of issue 38, each a ratio against its baseline in the
// same run. Run it from bench/ (its helpers resolve the CLI and fixtures from there):
//   cd bench && node --expose-gc --import tsx speed.bench.ts
// QUIVER_SPEED_ONLY=cli,stdio,http,session,memory picks rows; QUIVER_BENCH_HOG=2 adds two busy loops.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionEchoCall } from './mcp-session-side.js';
import {
  type Call,
  connectHttp,
  connectStdio,
  EVERYTHING,
  gatewayWorkspace,
  type HttpSide,
  peerVersions,
  QUIVER_BIN,
  startHttpGateway,
  type Workspace,
} from './speed/gateways.js';
import {
  environment,
  median,
  quantile,
  sleep,
  startCpuHogs,
  timedRun,
  treeRssMiB,
} from './speed/processes.js';

/**
 * Every figure of "start fast and relay thin", each as a ratio against its baseline measured in
 * the same run, in interleaved rounds (each side goes first as often as last):
 *
 * - CLI cold start: `quiver --version`, `quiver tools` (no MCP servers) and `quiver call read_file`
 *   against `node -e 0` and a `node -e` that reads the same file.
 * - `quiver serve` over stdio as a gateway in front of server-everything, warm p50 and the cold
 *   first call, against a byte-copying relay process (the physical cost of one extra hop).
 * - `quiver serve --http` with 10 calls in flight: p99 against mcp-proxy (median of 5 runs), and
 *   the cold first call against mcp-proxy and supergateway.
 * - A `createQuiver` session calling the bridged echo against the raw SDK client.
 * - Idle resident memory of `serve` (launcher and serve, not the bridged server) against a minimal
 *   SDK stdio server, and its growth over 10,000 calls.
 *
 * `QUIVER_BENCH_HOG=<n>` runs n busy loops beside it (the loaded-machine run);
 * `QUIVER_SPEED_ONLY=cli,stdio,http,session,memory` runs only those parts.
 */

const HOGS = Number(process.env.QUIVER_BENCH_HOG ?? 0);
const ONLY = (process.env.QUIVER_SPEED_ONLY ?? 'cli,stdio,http,session,memory').split(',');
const CLI_ROUNDS = Number(process.env.QUIVER_SPEED_CLI_ROUNDS ?? 10);
const STDIO_WARMUP = 3_000;
const STDIO_ROUNDS = 12;
const CALLS_PER_ROUND = 150;
/**
 * Fresh processes a side for the cold row: twice this. With 6 a side the median moved 1.6–5.5× on one
 * build at load above 5 (cold45); 12 a side cost ~10 s more on a quiet machine.
 */
const COLD_ROUNDS = 6;
const HTTP_RUNS = 5;
const HTTP_WARMUP = 300;
const HTTP_CALLS = 1_000;
const IN_FLIGHT = 10;
const SESSION_WARMUP = 5_000;
/** Rounds are short (150 calls of ~0.1 ms each): more of them, for a ratio that holds between runs. */
const SESSION_ROUNDS = 40;
const MEMORY_CALLS = 10_000;

interface Row {
  figure: string;
  measured: string;
  baseline: string;
  ratio: number;
  target: number;
  note?: string;
}

const rows: Row[] = [];

function record(row: Row): void {
  rows.push(row);
  console.log(
    `${row.figure}: ${row.ratio.toFixed(2)}× (${row.measured} / ${row.baseline}); target ≤ ${row.target}× ${row.ratio <= row.target ? 'met' : 'NOT met'}${row.note ? `; ${row.note}` : ''}`,
  );
}

/**
 * The median of each round's ratio: both sides of a round ran back to back, so a load that
 * changes between rounds (other processes' builds) moves both; a ratio of the sides' overall
 * medians can pair a quiet round of one with a busy round of the other. With its spread.
 */
function pairedRatio(measured: number[], baseline: number[]): { ratio: number; spread: string } {
  const ratios = measured.map((value, index) => value / (baseline[index] as number)).sort((a, b) => a - b);
  const quartile = (q: number) => (ratios[Math.round(q * (ratios.length - 1))] as number).toFixed(2);
  return {
    ratio: median(ratios),
    spread: `rounds' ratios ${quartile(0.25)}–${quartile(0.75)} (middle half)`,
  };
}

/** The median of the rounds' differences, in µs: what one side adds to a call over the other. */
function addedMicros(measured: number[], baseline: number[]): number {
  return Math.round(median(measured.map((value, index) => value - (baseline[index] as number))) * 1000);
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

/** Runs each side `rounds` times, in an order that rotates every round; per-side samples. */
async function interleaved<Side extends string, Sample = number>(
  sides: Record<Side, () => Promise<Sample>>,
  rounds: number,
): Promise<Record<Side, Sample[]>> {
  const names = Object.keys(sides) as Side[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as Sample[]])) as Record<Side, Sample[]>;
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, index) => names[(index + round) % names.length] as Side);
    if (round % 2 === 1) order.reverse();
    for (const side of order) samples[side].push(await sides[side]());
  }
  return samples;
}

async function cliStart(root: string): Promise<void> {
  const workspace = mkdtempSync(path.join(root, 'cli-'));
  const xdg = mkdtempSync(path.join(root, 'cli-xdg-'));
  writeFileSync(path.join(workspace, 'notes.txt'), 'one line to read\n');
  const options = { cwd: workspace, env: environment({ XDG_DATA_HOME: xdg }) };
  const node = (args: string[]) => () => timedRun(process.execPath, args, options);
  const readScript = "process.stdout.write(require('node:fs').readFileSync('notes.txt', 'utf8'))";
  // One of each first: file-system caches and the trust record are as a second run finds them.
  await node([QUIVER_BIN, 'call', 'read_file', '-a', '{"path":"notes.txt"}'])();
  const samples = await interleaved(
    {
      nodeEmpty: node(['-e', '0']),
      nodeRead: node(['-e', readScript]),
      version: node([QUIVER_BIN, '--version']),
      tools: node([QUIVER_BIN, 'tools']),
      call: node([QUIVER_BIN, 'call', 'read_file', '-a', '{"path":"notes.txt"}']),
    },
    CLI_ROUNDS,
  );
  const empty = median(samples.nodeEmpty);
  record({
    figure: 'quiver --version / node -e 0',
    measured: ms(median(samples.version)),
    baseline: ms(empty),
    ratio: median(samples.version) / empty,
    target: 2,
  });
  record({
    figure: 'quiver call read_file / node -e reading the file',
    measured: ms(median(samples.call)),
    baseline: ms(median(samples.nodeRead)),
    ratio: median(samples.call) / median(samples.nodeRead),
    target: 4,
  });
  record({
    figure: 'quiver tools (no MCP servers) / node -e 0',
    measured: ms(median(samples.tools)),
    baseline: ms(empty),
    ratio: median(samples.tools) / empty,
    target: 5,
  });
}

async function timedCalls(call: Call, count: number): Promise<number[]> {
  const taken: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    taken.push(performance.now() - started);
  }
  return taken;
}

async function stdioGateway(root: string): Promise<void> {
  const workspace = gatewayWorkspace(root);
  const raw = await connectStdio('raw', workspace);
  const relay = await connectStdio('relay', workspace);
  const parsing = await connectStdio('parsing', workspace);
  const serve = await connectStdio('serve', workspace);
  try {
    for (let index = 0; index < STDIO_WARMUP; index++) {
      await raw.call();
      await relay.call();
      await parsing.call();
      await serve.call();
    }
    const perRound = await interleaved(
      {
        raw: async () => median(await timedCalls(raw.call, CALLS_PER_ROUND)),
        relay: async () => median(await timedCalls(relay.call, CALLS_PER_ROUND)),
        parsing: async () => median(await timedCalls(parsing.call, CALLS_PER_ROUND)),
        serve: async () => median(await timedCalls(serve.call, CALLS_PER_ROUND)),
      },
      STDIO_ROUNDS,
    );
    const [rawP50, relayP50, serveP50] = [
      median(perRound.raw),
      median(perRound.relay),
      median(perRound.serve),
    ];
    const paired = pairedRatio(perRound.serve, perRound.relay);
    // Context, not a target: what parsing and writing every message again costs a relay, the
    // part of the row's budget any gateway that reads what it relays spends before doing anything.
    const parsed = pairedRatio(perRound.parsing, perRound.relay);
    record({
      figure: 'serve stdio bridged echo p50 / byte relay p50, warm',
      measured: ms(serveP50),
      baseline: ms(relayP50),
      ratio: paired.ratio,
      target: 1.25,
      note: `median of ${STDIO_ROUNDS} rounds' ratios, ${paired.spread}; raw server ${ms(rawP50)}; serve adds ${((serveP50 - rawP50) * 1000).toFixed(0)} µs a call, the relay ${((relayP50 - rawP50) * 1000).toFixed(0)} µs; a relay that parses and rewrites every message (speed/parsing-relay.mjs) ${ms(median(perRound.parsing))}, ${parsed.ratio.toFixed(2)}× the byte relay`,
    });
  } finally {
    await Promise.all([raw.close(), relay.close(), parsing.close(), serve.close()]);
  }
  const cold = await interleaved(
    {
      relay: async () => coldStdio('relay', workspace),
      serve: async () => coldStdio('serve', workspace),
    },
    COLD_ROUNDS * 2,
  );
  const firstCall = (side: 'relay' | 'serve') => median(cold[side].map((sample) => sample.firstCallMs));
  const listed = (side: 'relay' | 'serve') => median(cold[side].map((sample) => sample.listedMs));
  record({
    figure: "serve stdio cold first call / relay's first call",
    measured: ms(firstCall('serve')),
    baseline: ms(firstCall('relay')),
    ratio: firstCall('serve') / firstCall('relay'),
    target: 3,
    note: `spawn to first tools/list naming echo: serve ${ms(listed('serve'))}, relay ${ms(listed('relay'))} (${(listed('serve') / listed('relay')).toFixed(2)}×)`,
  });
}

/** One fresh process: spawn → its first tools/list naming echo, and then its first call. */
async function coldStdio(
  side: 'relay' | 'serve',
  workspace: Workspace,
): Promise<{ listedMs: number; firstCallMs: number }> {
  const connected = await connectStdio(side, workspace);
  try {
    const [first] = await timedCalls(connected.call, 1);
    return { listedMs: connected.listedMs, firstCallMs: first as number };
  } finally {
    await connected.close();
  }
}

async function concurrentCalls(call: Call, total: number, inFlight: number): Promise<number[]> {
  const taken: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      const at = performance.now();
      await call();
      taken.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return taken;
}

async function httpGateway(root: string): Promise<void> {
  const workspace = gatewayWorkspace(root);
  const sides: HttpSide[] = ['serve', 'mcp-proxy', 'supergateway'];
  const p99: Record<HttpSide, number[]> = { serve: [], 'mcp-proxy': [], supergateway: [] };
  const first: Record<HttpSide, number[]> = { serve: [], 'mcp-proxy': [], supergateway: [] };
  for (let run = 0; run < HTTP_RUNS; run++) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const gateway = await startHttpGateway(side, workspace);
      try {
        const connected = await connectHttp(gateway);
        const [firstCall] = await timedCalls(connected.call, 1);
        first[side].push(firstCall as number);
        await concurrentCalls(connected.call, HTTP_WARMUP, IN_FLIGHT);
        p99[side].push(quantile(await concurrentCalls(connected.call, HTTP_CALLS, IN_FLIGHT), 0.99));
        await connected.close();
      } finally {
        await gateway.stop();
      }
    }
  }
  const ratios = p99.serve.map((value, index) => value / (p99['mcp-proxy'][index] as number));
  record({
    figure: `serve --http, ${IN_FLIGHT} in flight, p99 / mcp-proxy p99 (median of ${HTTP_RUNS} runs)`,
    measured: ms(median(p99.serve)),
    baseline: ms(median(p99['mcp-proxy'])),
    ratio: median(ratios),
    target: 1.2,
    note: `supergateway p99 ${ms(median(p99.supergateway))}; runs ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}`,
  });
  console.log(
    `serve --http cold first call ${ms(median(first.serve))}; mcp-proxy ${ms(median(first['mcp-proxy']))}; supergateway ${ms(median(first.supergateway))} (medians of ${HTTP_RUNS} fresh processes)`,
  );
}

async function inProcessSession(): Promise<void> {
  const workspace = { dir: '', xdg: '' };
  const raw = await connectStdio('raw', workspace);
  const session = await sessionEchoCall(process.execPath, [EVERYTHING, 'stdio']);
  try {
    const coldStarted = performance.now();
    await session.call();
    const coldSession = performance.now() - coldStarted;
    for (let index = 0; index < SESSION_WARMUP; index++) {
      await raw.call();
      await session.call();
    }
    const perRound = await interleaved(
      {
        raw: async () => median(await timedCalls(raw.call, CALLS_PER_ROUND)),
        session: async () => median(await timedCalls(session.call, CALLS_PER_ROUND)),
      },
      SESSION_ROUNDS,
    );
    const paired = pairedRatio(perRound.session, perRound.raw);
    record({
      figure: 'in-process session / raw SDK client p50, warm',
      measured: ms(median(perRound.session)),
      baseline: ms(median(perRound.raw)),
      ratio: paired.ratio,
      target: 1.1,
      note: `median of ${SESSION_ROUNDS} rounds' ratios, ${paired.spread}; the session adds ${addedMicros(perRound.session, perRound.raw)} µs a call; the session's first call ${ms(coldSession)}`,
    });
  } finally {
    await session.close();
    await raw.close();
  }
}

async function memory(root: string): Promise<void> {
  const workspace = gatewayWorkspace(root);
  const minimal = await connectStdio('minimal', workspace);
  const serve = await connectStdio('serve', workspace);
  try {
    await minimal.call();
    await serve.call();
    await sleep(2_000);
    const minimalIdle = treeRssMiB(minimal.pid as number);
    const serveIdle = treeRssMiB(serve.pid as number, [EVERYTHING]);
    record({
      figure: 'serve idle RSS (launcher + serve) / a minimal SDK stdio server',
      measured: `${serveIdle.toFixed(0)} MiB`,
      baseline: `${minimalIdle.toFixed(0)} MiB`,
      ratio: serveIdle / minimalIdle,
      target: 2,
    });
    for (let index = 0; index < MEMORY_CALLS; index++) await serve.call();
    await sleep(2_000);
    const after = treeRssMiB(serve.pid as number, [EVERYTHING]);
    console.log(
      `serve RSS after ${MEMORY_CALLS} bridged calls: ${after.toFixed(0)} MiB (idle ${serveIdle.toFixed(0)} MiB, +${(after - serveIdle).toFixed(0)} MiB)`,
    );
  } finally {
    await Promise.all([minimal.close(), serve.close()]);
  }
}

export async function run(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'quiver-speed-bench-'));
  const hogs = startCpuHogs(HOGS);
  const failed: string[] = [];
  const versions = peerVersions();
  console.log(
    `node ${process.version}; peers: mcp-proxy ${versions.mcpProxy}, supergateway ${versions.supergateway}; ${HOGS} CPU hog(s) beside; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  try {
    const parts: Array<[string, () => Promise<void>]> = [
      ['cli', () => cliStart(root)],
      ['stdio', () => stdioGateway(root)],
      ['http', () => httpGateway(root)],
      ['session', () => inProcessSession()],
      ['memory', () => memory(root)],
    ];
    // A part that fails (a half-built tree, a peer that will not start) leaves the others to run.
    for (const [name, part] of parts.filter(([name]) => ONLY.includes(name)))
      await part().catch((error: unknown) => {
        failed.push(name);
        console.error(
          `speed: the ${name} part failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
  console.table(
    rows.map((row) => ({
      figure: row.figure,
      measured: row.measured,
      baseline: row.baseline,
      ratio: `${row.ratio.toFixed(2)}×`,
      target: `≤ ${row.target}×`,
      met: row.ratio <= row.target ? 'yes' : 'NO',
    })),
  );
  console.log(`load average at the end ${os.loadavg()[0]?.toFixed(1)}`);
  if (failed.length > 0) throw new Error(`parts that failed: ${failed.join(', ')}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
