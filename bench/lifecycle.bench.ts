import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '@quiver/core';
import {
  createSession,
  DefaultHookRegistry,
  type SessionPolicy,
  SqliteSessionEventLog,
} from '@quiver/runtime';
import { defineTool, ok, type ToolCall, type ToolContext } from '@quiver/types';
import { Bench } from 'tinybench';
import { z } from 'zod';

/**
 * The whole call lifecycle of a session (lookup, validation, an allow rule, hooks, core's runner,
 * reducer, budget, lifecycle events to a subscriber, and the SQLite event log written in one
 * transaction per batch) against calling the same cheap tool's `execute` directly in the same
 * process, with and without the log, so that the log's share is visible. Medians (p50).
 */

const TARGET_MICROSECONDS_PER_CALL = 30;
const BATCH_SIZES = [1, 10] as const;

const echo = defineTool({
  name: 'echo',
  description: 'Echoes text',
  input: z.object({ text: z.string() }),
  capabilities: {},
  execute: async (args) => ok(args.text),
});

const directContext = {
  callId: 'direct',
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
} satisfies ToolContext;

const policy: SessionPolicy = {
  personalityId: 'bench',
  plugins: [],
  mcpServers: {},
  permissions: { allow: ['echo'] },
  agents: {},
  budget: { resultChars: 80_000 },
  deferLoading: { enabled: false },
};

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  let allMet = true;
  for (const withLog of [false, true]) {
    for (const size of BATCH_SIZES) {
      const row = await measure(size, withLog);
      allMet &&= row.met;
      rows.push({
        calls: size,
        'event log': withLog ? 'SQLite, batched' : 'none',
        'direct µs/batch (p50)': round(row.direct),
        'lifecycle µs/batch (p50)': round(row.lifecycle),
        'overhead µs/call': round(row.overheadPerCall),
        [`target ≤ ${TARGET_MICROSECONDS_PER_CALL} µs`]: row.met ? 'met' : 'MISSED',
      });
    }
  }
  console.log('\ncall lifecycle: session.execute (allow rule, events, log) vs calling execute directly');
  console.table(rows);
  console.log(
    allMet
      ? `target met: at most ${TARGET_MICROSECONDS_PER_CALL} µs per call in every row`
      : 'target MISSED in some row',
  );
}

async function measure(
  size: number,
  withLog: boolean,
): Promise<{ direct: number; lifecycle: number; overheadPerCall: number; met: boolean }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quiver-bench-lifecycle-'));
  const workspace = mkdtempSync(join(tmpdir(), 'quiver-bench-workspace-'));
  const reducers = new DefaultToolResultReducerRegistry();
  const registry = new DefaultToolRegistry({ reducers });
  registry.register(echo);
  const eventLog = withLog ? new SqliteSessionEventLog({ dataDir }) : undefined;
  const session = createSession(
    {
      registry,
      reducers,
      backends: { has: () => false, resolve: () => Promise.reject(new Error('no backends')) },
      hooks: new DefaultHookRegistry(),
      policy,
      workspace,
      dataDir,
      ...(eventLog ? { eventLog } : {}),
    },
    { sessionId: `bench-lifecycle-${size}` },
  );
  let events = 0;
  session.events.subscribe(() => {
    events += 1;
  });
  let turn = 0;
  try {
    const [warm] = await session.execute([{ name: 'echo', args: { text: 'warm' } }]);
    if (!warm?.ok) throw new Error(`the lifecycle refused the benchmark call: ${JSON.stringify(warm)}`);
    const calls: ToolCall[] = Array.from({ length: size }, (_, index) => ({
      name: 'echo',
      args: { text: `payload ${index}` },
    }));
    const bench = new Bench({ time: 1500, warmupTime: 300 });
    bench
      .add(`direct execute ×${size}`, async () => {
        await Promise.all(calls.map((call) => echo.execute(call.args as { text: string }, directContext)));
      })
      .add(`session.execute ×${size}`, async () => {
        turn += 1;
        await session.execute(calls, { turn });
      });
    globalThis.gc?.();
    await bench.run();
    const [direct, lifecycle] = bench.tasks.map((task) => {
      const result = task.result;
      if (result === undefined || !('latency' in result))
        throw new Error(`benchmark task "${task.name}" did not complete`);
      return result.latency.p50;
    });
    if (direct === undefined || lifecycle === undefined) throw new Error('missing benchmark results');
    if (events === 0) throw new Error('the subscriber received no lifecycle events');
    const overheadPerCall = ((lifecycle - direct) * 1000) / size;
    return {
      direct: direct * 1000,
      lifecycle: lifecycle * 1000,
      overheadPerCall,
      met: overheadPerCall <= TARGET_MICROSECONDS_PER_CALL,
    };
  } finally {
    await session.close();
    eventLog?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
