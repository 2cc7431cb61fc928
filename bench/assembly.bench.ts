import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { DefaultToolRegistry } from '@quiver/core';
import { assembleToolPool, type SessionPolicy } from '@quiver/runtime';
import { ok, type Tool } from '@quiver/types';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { p50sMs, round } from './measure.js';

/**
 * Tool-pool assembly time for 10 to 10,000 tools (a tenth built-in, the rest MCP over 20
 * servers, deferred loading on), against a baseline of copying and sorting the same names, and
 * how the time grows between sizes compared with n log n.
 */

const SIZES = [10, 100, 1_000, 10_000] as const;
const TARGET_MS_AT_10K = 10;
const SERVERS = 20;

function buildRegistry(size: number): { registry: DefaultToolRegistry; policy: SessionPolicy } {
  const registry = new DefaultToolRegistry();
  const builtIns = Math.max(1, Math.round(size / 10));
  const schema = {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'integer' } },
    required: ['query'],
  };
  const tools: Tool[] = [];
  for (let index = 0; index < builtIns; index += 1) {
    tools.push({
      name: `builtin_tool_${index}`,
      description: `Built-in tool number ${index}.`,
      input: z.object({ query: z.string() }),
      capabilities: {},
      execute: () => ok(''),
    });
  }
  registry.registerAll(tools, { pluginId: 'bench' });
  const mcp: Tool[] = [];
  for (let index = 0; index < size - builtIns; index += 1) {
    const server = `server${index % SERVERS}`;
    mcp.push({
      name: `mcp__${server}__operation_${index}`,
      description: `Runs operation ${index} on ${server}: lists, fetches or updates remote records.`,
      input: z.record(z.string(), z.unknown()),
      parametersJsonSchema: schema,
      capabilities: {},
      mcp: { server, originalName: `operation_${index}` },
      execute: () => ok(''),
    });
  }
  registry.registerAll(mcp);
  const policy: SessionPolicy = {
    personalityId: 'bench',
    plugins: ['bench'],
    mcpServers: Object.fromEntries(
      Array.from({ length: SERVERS }, (_, index) => [`server${index}`, { excludeTools: ['never_*'] }]),
    ),
    permissions: { deny: ['mcp__server3__operation_3', 'terminal(rm:*)'] },
    agents: {},
    budget: { resultChars: 80_000 },
    deferLoading: { enabled: 'auto' },
  };
  return { registry, policy };
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  const medians: number[] = [];
  for (const size of SIZES) {
    const { registry, policy } = buildRegistry(size);
    const bench = new Bench({ time: size >= 10_000 ? 1_500 : 400, warmupTime: 100 });
    bench
      .add(`baseline: list + sort names ×${size}`, () => {
        registry
          .list()
          .map((entry) => entry.tool.name)
          .sort();
      })
      .add(`assembleToolPool ×${size}`, () => {
        assembleToolPool({ registered: registry.list(), policy, options: { model: 'claude-sonnet-4-5' } });
      });
    globalThis.gc?.();
    await bench.run();
    const [baseline, assembly] = p50sMs(bench);
    if (baseline === undefined || assembly === undefined) throw new Error('missing benchmark results');
    medians.push(assembly);
    const cpu = cpuMillisecondsPerCall(
      () =>
        assembleToolPool({ registered: registry.list(), policy, options: { model: 'claude-sonnet-4-5' } }),
      assembly,
    );
    const previous = medians.length > 1 ? (medians[medians.length - 2] as number) : undefined;
    const previousSize = SIZES[medians.length - 2];
    const nLogN = (n: number) => n * Math.log2(n);
    rows.push({
      tools: size,
      'baseline median ms': round(baseline, 3),
      'assembly median ms': round(assembly, 3),
      'assembly / baseline': `${round(assembly / baseline, 3)}×`,
      'assembly CPU ms': round(cpu, 3),
      'growth vs previous size': previous === undefined ? '-' : `${round(assembly / previous, 3)}×`,
      'n log n growth': previousSize === undefined ? '-' : `${round(nLogN(size) / nLogN(previousSize), 3)}×`,
    });
  }
  console.table(rows);
  // Wall-clock medians include time spent waiting for a core; CPU ms is this process's own work.
  console.log(`load average while measuring: ${loadavg()[0]?.toFixed(1)} on this machine`);
  const at10k = medians[medians.length - 1] as number;
  console.log(
    `10,000 tools: ${round(at10k, 3)} ms median (target < ${TARGET_MS_AT_10K} ms: ${at10k < TARGET_MS_AT_10K ? 'met' : 'MISSED'})`,
  );
}

/** Process CPU time per call over about 300 ms of calls (includes the GC's helper threads). */
function cpuMillisecondsPerCall(fn: () => unknown, medianMs: number): number {
  const calls = Math.max(5, Math.ceil(300 / Math.max(medianMs, 0.001)));
  const start = process.cpuUsage();
  for (let index = 0; index < calls; index += 1) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / calls;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
