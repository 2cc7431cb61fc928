import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry, ToolRunner } from '@quiver/core';
import { createSession, DefaultHookRegistry, SqliteSessionEventLog } from '@quiver/runtime';
import { sqliteBackend } from '@quiver/storage-sqlite';
import type { ToolCall } from '@quiver/types';
import { Bench } from 'tinybench';
import { directContext, echo, echoPolicy } from './echo-fixture.js';
import { median, p50, round } from './measure.js';

/**
 * The whole call lifecycle of a session (lookup, validation, an allow rule, hooks, core's runner,
 * reducer, budget, lifecycle events to a subscriber, and the SQLite event log written behind the
 * calls by its writer thread) against calling the same cheap tool's `execute` directly in the
 * same process, with and without the log; core's runner alone is measured alongside.
 *
 * The machines are shared and noisy, so each figure is the median of several short rounds, each
 * round measuring the direct call and the lifecycle back to back (p50 latency within a round).
 * A sustained run then yields to the event loop between batches, as an agent does between turns,
 * and counts the CPU time of every thread (the log's writer thread included) until the log has
 * written everything; the log is then read back to check that every call is in it.
 */

const TARGET_MICROSECONDS_PER_CALL = 30;
const BATCH_SIZES = [1, 10] as const;
const ROUNDS = 7;
const ROUND_MS = 250;
const SUSTAINED_CALLS = 10_000;

interface Row {
  core: number;
  lifecycle: number;
  direct: number;
  /** CPU time of every thread per call, lifecycle minus direct, sustained until the log is written. */
  cpuPerCall: number;
  /** How long closing took after the latency rounds: what the log's thread still had to write. */
  drainMs: number;
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  let allMet = true;
  for (const withLog of [false, true]) {
    for (const size of BATCH_SIZES) {
      const row = await measure(size, withLog);
      const overhead = (row.lifecycle - row.direct) / size;
      const met = overhead <= TARGET_MICROSECONDS_PER_CALL;
      allMet &&= met;
      rows.push({
        calls: size,
        'event log': withLog ? 'SQLite, writer thread' : 'none',
        'direct µs/batch': round(row.direct),
        'lifecycle µs/batch': round(row.lifecycle),
        'core runner µs/call': round((row.core - row.direct) / size),
        'lifecycle µs/call': round(overhead),
        [`≤ ${TARGET_MICROSECONDS_PER_CALL} µs`]: met ? 'met' : 'MISSED',
        'CPU µs/call, all threads': round(row.cpuPerCall),
        'log drain ms': withLog ? round(row.drainMs) : '–',
      });
    }
  }
  console.log(
    `\ncall lifecycle: session.execute (allow rule, events, log) vs calling execute directly; ` +
      `medians of ${ROUNDS} rounds of p50 latency; per-call figures are the difference to the direct call`,
  );
  console.table(rows);
  console.log(
    allMet
      ? `target met: at most ${TARGET_MICROSECONDS_PER_CALL} µs per call in every row`
      : 'target MISSED in some row',
  );
}

interface Fixture {
  session: ReturnType<typeof createSession>;
  sessionId: string;
  completions(): number;
  /** Closes the session (which waits for the log to write everything) and checks that every call is in the log. */
  close(): Promise<void>;
  remove(): void;
}

async function open(size: number, withLog: boolean, label: string): Promise<Fixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quiver-bench-lifecycle-'));
  const workspace = mkdtempSync(join(tmpdir(), 'quiver-bench-workspace-'));
  const reducers = new DefaultToolResultReducerRegistry();
  const registry = new DefaultToolRegistry({ reducers });
  registry.register(echo);
  const eventLog = withLog ? new SqliteSessionEventLog({ dataDir, sqlite: sqliteBackend }) : undefined;
  const sessionId = `bench-lifecycle-${label}-${size}`;
  const session = createSession(
    {
      registry,
      reducers,
      backends: { has: () => false, resolve: () => Promise.reject(new Error('no backends')) },
      hooks: new DefaultHookRegistry(),
      policy: echoPolicy,
      workspace,
      dataDir,
      ...(eventLog ? { eventLog } : {}),
    },
    { sessionId },
  );
  let completions = 0;
  session.events.subscribe((event) => {
    if (event.type === 'tool.execution_complete') completions += 1;
  });
  const [warm] = await session.execute([{ name: 'echo', args: { text: 'warm' } }]);
  if (!warm?.ok) throw new Error(`the lifecycle refused the benchmark call: ${JSON.stringify(warm)}`);
  return {
    session,
    sessionId,
    completions: () => completions,
    close: async () => {
      await session.close();
      if (eventLog === undefined) return;
      const logged = (await eventLog.sessionCalls(sessionId)).filter((call) => call.status === 'ok').length;
      if (logged !== completions)
        throw new Error(`the log holds ${logged} completed calls; the session completed ${completions}`);
    },
    remove: () => {
      eventLog?.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

async function measure(size: number, withLog: boolean): Promise<Row> {
  const calls: ToolCall[] = Array.from({ length: size }, (_, index) => ({
    name: 'echo',
    args: { text: `payload ${index}` },
  }));
  const direct = () =>
    Promise.all(calls.map((call) => echo.execute(call.args as { text: string }, directContext)));
  const runner = new ToolRunner();
  const core = () =>
    Promise.all(
      calls.map((call, index) =>
        runner.run({
          tool: echo,
          callId: `core-${index}`,
          args: call.args,
          sessionId: 'bench',
          personalityId: 'bench',
          agent: { kind: 'main', id: 'bench' },
          turn: 1,
          signal: directContext.signal,
          budget: 80_000,
        }),
      ),
    );
  let turn = 0;

  const latency = await open(size, withLog, 'latency');
  const samples: Array<{ direct: number; core: number; lifecycle: number }> = [];
  let drainMs: number;
  try {
    const lifecycle = () => latency.session.execute(calls, { turn: ++turn });
    for (let index = 0; index < ROUNDS; index += 1) {
      const bench = new Bench({ time: ROUND_MS, warmupTime: index === 0 ? 300 : 50 });
      bench.add('direct', direct).add('core', core).add('lifecycle', lifecycle);
      globalThis.gc?.();
      await bench.run();
      const [d, c, l] = bench.tasks.map((task) => p50(task));
      samples.push({ direct: d ?? Number.NaN, core: c ?? Number.NaN, lifecycle: l ?? Number.NaN });
    }
    const drainStart = performance.now();
    await latency.close();
    drainMs = performance.now() - drainStart;
  } finally {
    latency.remove();
  }

  const directCpu = await sustainedCpu(direct, size, async () => {});
  const sustained = await open(size, withLog, 'sustained');
  let lifecycleCpu: number;
  try {
    lifecycleCpu = await sustainedCpu(
      () => sustained.session.execute(calls, { turn: ++turn }),
      size,
      sustained.close,
    );
  } finally {
    sustained.remove();
  }
  return {
    direct: median(samples.map((sample) => sample.direct)),
    core: median(samples.map((sample) => sample.core)),
    lifecycle: median(samples.map((sample) => sample.lifecycle)),
    cpuPerCall: lifecycleCpu - directCpu,
    drainMs,
  };
}

/** CPU time of all threads per call, over batches with a turn of the event loop between them and then `finish`. */
async function sustainedCpu(
  batch: () => Promise<unknown>,
  size: number,
  finish: () => Promise<void>,
): Promise<number> {
  const batches = Math.ceil(SUSTAINED_CALLS / size);
  globalThis.gc?.();
  const before = process.cpuUsage();
  for (let index = 0; index < batches; index += 1) {
    await batch();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await finish();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (batches * size);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
