import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpBridge } from '@quiver/mcp-bridge';
import type { Tool, ToolContext } from '@quiver/types';
import { Bench } from 'tinybench';

/**
 * What the MCP bridge adds per call on top of the raw SDK client, both calling server-everything's
 * `echo` over stdio (each through its own server process), sequentially and 10 at a time.
 */

const TARGET_RATIO = 1.1;
const ITERATIONS = 3_000;
const require = createRequire(import.meta.url);
const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const toolContext: ToolContext = {
  callId: 'bench',
  sessionId: 'bench',
  personalityId: 'bench',
  agent: { kind: 'main', id: 'bench' },
  turn: 1,
  signal: new AbortController().signal,
  emit: () => {},
  budget: 80_000,
  dryRun: false,
  capabilities: {},
  attachments: [],
  session: { get: () => undefined, set: () => {}, delete: () => {} },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function run(): Promise<void> {
  const raw = new Client({ name: 'bench-raw', version: '1.0.0' });
  await raw.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
  const tools = new Map<string, Tool>();
  const bridge = new McpBridge({
    servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    register: (tool) => {
      tools.set(tool.name, tool);
      return () => tools.delete(tool.name);
    },
  });
  await bridge.start();
  const echo = tools.get('mcp__everything__echo');
  if (echo === undefined) throw new Error('the bridge did not register mcp__everything__echo');

  const callRaw = () => raw.callTool({ name: 'echo', arguments: { message: 'bench' } });
  const callBridge = async () => {
    const result = await echo.execute({ message: 'bench' }, toolContext);
    if (!result.ok) throw new Error(result.error);
  };
  const rows: Array<Record<string, string | number>> = [];
  let allMet = true;
  try {
    for (const concurrency of [1, 10]) {
      const batch = Array.from({ length: concurrency });
      const tasks = {
        raw: async () => {
          await Promise.all(batch.map(callRaw));
        },
        bridge: async () => {
          await Promise.all(batch.map(callBridge));
        },
      };
      // Warm both server processes and the JIT before measuring.
      const warm = new Bench({ time: 300, warmupTime: 100 }).add('raw', tasks.raw).add('bridge', tasks.bridge);
      await warm.run();
      globalThis.gc?.();
      // Interleaved, alternating which goes first: load from other processes on the machine hits
      // both sides alike instead of whichever task tinybench happened to run at that moment.
      const samples = { raw: [] as number[], bridge: [] as number[] };
      for (let iteration = 0; iteration < ITERATIONS; iteration++) {
        const order = iteration % 2 === 0 ? (['raw', 'bridge'] as const) : (['bridge', 'raw'] as const);
        for (const side of order) {
          const started = performance.now();
          await tasks[side]();
          samples[side].push(performance.now() - started);
        }
      }
      const rawMedian = median(samples.raw);
      const bridgeMedian = median(samples.bridge);
      const ratio = bridgeMedian / rawMedian;
      const met = ratio <= TARGET_RATIO;
      allMet &&= met;
      rows.push({
        calls: concurrency === 1 ? 'sequential' : `${concurrency} concurrent`,
        'raw SDK median (ms)': rawMedian.toFixed(3),
        'bridge median (ms)': bridgeMedian.toFixed(3),
        'bridge / raw': ratio.toFixed(3),
        target: `≤ ${TARGET_RATIO}`,
        met: met ? 'yes' : 'NO',
      });
    }
  } finally {
    await bridge.stop();
    await raw.close();
  }
  console.table(rows);
  console.log(allMet ? 'mcp-bridge: every ratio within target' : 'mcp-bridge: a ratio is above target');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
