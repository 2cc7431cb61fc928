import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolResult } from '@quiver/types';
import { createQuiver, type Quiver } from '@quiver/wiring';
import { median, quantile, round } from './measure.js';

/**
 * What scripting tool calls costs against calling the tools directly, in the same run: an inner
 * call (a script's `await tools.read_file(…)`) against one direct `session.execute` of the same
 * read, and the first script of a session (its sandbox thread taken warm from the pool) against
 * one inner call. Targets: inner call ≤ 1.3× direct, first script ≤ 10× an inner call.
 */

/**
 * Calls each way per round. A round of 200 (about 0.3 s) spans many scheduler slices, so one slice
 * lost to another process moves its ratio less than in a round of 100. (Rounds of 50, four times
 * as many, were tried: the rounds' ratios spread wider and the median was no steadier from run to
 * run.)
 */
const CALLS = 200;
/**
 * Rounds alternate which way goes first; each round gives one ratio, and the median ratio is
 * reported with the mean of the middle half of the ratios (the interquartile mean), the middle
 * half and the 10th–90th percentiles. 61 rounds (about 20 s): on a loaded 2-core machine the
 * rounds' ratios spread over ~1.1–1.7×, and the median of 31 moved ±0.08× from run to run, of 41
 * ±0.04×. `REPL_BENCH_ROUNDS` sets another count.
 */
const ROUNDS = Math.max(Number(process.env.REPL_BENCH_ROUNDS) || 61, 3);
const FIRST_SCRIPT_ROUNDS = 11;
/** Rounds of inner calls made together (`Promise.all`), for the session thread's cost of a call without a sleep per call. */
const TOGETHER_ROUNDS = 11;

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : `${result?.error}`);

async function timed(work: () => Promise<ToolResult | undefined>): Promise<number> {
  return (await timedBoth(work)).ms;
}

/** CPU time of the whole process (every thread: the sandbox's and the log writer's too), in ms. */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/**
 * CPU time each thread of this process has run so far, in µs, by thread id (Linux's
 * `/proc/self/task/<tid>/schedstat`, in ns; empty where it does not exist). Node 20 names every
 * thread `node`, so the threads are told apart by when they run: the session's is the process's
 * own id, the sandbox's is the one that runs in inner rounds and not in direct ones. The session
 * thread's context switches so far are under `switches:voluntary` and `switches:involuntary`
 * (from its `status`): on a VM each one costs tens of µs of kernel time, charged to the thread.
 */
function threadCpu(): Map<string, number> {
  const used = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return used;
  }
  for (const tid of tids) {
    try {
      used.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  try {
    const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
    const voluntary = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1];
    const involuntary = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1];
    if (voluntary !== undefined) used.set('switches:voluntary', Number(voluntary));
    if (involuntary !== undefined) used.set('switches:involuntary', Number(involuntary));
  } catch {
    // No /proc: no switch counts.
  }
  return used;
}

/** Adds what each thread ran between two `threadCpu` readings, times `sign`, to `into`. */
function addThreadCpu(
  into: Map<string, number>,
  before: Map<string, number>,
  after: Map<string, number>,
  sign = 1,
): void {
  for (const [tid, us] of after) into.set(tid, (into.get(tid) ?? 0) + sign * (us - (before.get(tid) ?? 0)));
}

/**
 * Per call, in µs: the session's thread, the sandbox's, and all others, inner calls against direct
 * ones; and the session thread's context switches per call.
 */
function threadBreakdown(inner: Map<string, number>, direct: Map<string, number>, calls: number) {
  const session = String(process.pid);
  const counts = ['switches:voluntary', 'switches:involuntary'];
  let sandbox: string | undefined;
  let most = 0;
  for (const [tid, us] of inner) {
    const extra = us - (direct.get(tid) ?? 0);
    if (tid !== session && !counts.includes(tid) && extra > most) {
      most = extra;
      sandbox = tid;
    }
  }
  const sum = (map: Map<string, number>, skip: readonly (string | undefined)[]) =>
    [...map].reduce(
      (total, [tid, us]) => (skip.includes(tid) || counts.includes(tid) ? total : total + us),
      0,
    );
  const perCall = (us: number) => Math.round(us / calls);
  const switches = (map: Map<string, number>) =>
    counts.map((kind) => round((map.get(kind) ?? 0) / calls, 1)) as [voluntary: number, involuntary: number];
  return {
    session: { inner: perCall(inner.get(session) ?? 0), direct: perCall(direct.get(session) ?? 0) },
    sandbox: perCall(sandbox === undefined ? 0 : (inner.get(sandbox) ?? 0)),
    others: {
      inner: perCall(sum(inner, [session, sandbox])),
      direct: perCall(sum(direct, [session, sandbox])),
    },
    switches: { inner: switches(inner), direct: switches(direct) },
  };
}

async function timedBoth(work: () => Promise<ToolResult | undefined>): Promise<{ ms: number; cpu: number }> {
  const cpu = cpuMs();
  const started = performance.now();
  const result = await work();
  const elapsed = performance.now() - started;
  const used = cpuMs() - cpu;
  if (!result?.ok) throw new Error(`a measured call failed: ${textOf(result)}`);
  return { ms: elapsed, cpu: used };
}

/** The mean of the samples between the 25th and 75th percentiles: steadier than the median alone. */
function interquartileMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.slice(Math.floor(sorted.length / 4), Math.ceil((sorted.length * 3) / 4));
  return middle.reduce((sum, value) => sum + value, 0) / middle.length;
}

async function measure(quiver: Quiver) {
  const direct = quiver.createSession({ personality: 'direct' });
  const scripted = quiver.createSession({ personality: 'scripted' });
  const repl = (code: string) => async () => (await scripted.execute([{ name: 'repl', args: { code } }]))[0];
  const read = async () => (await direct.execute([{ name: 'read_file', args: { path: 'a.txt' } }]))[0];
  const directThreads = new Map<string, number>();
  const innerThreads = new Map<string, number>();
  let measuring = false;
  const directRound = async () => {
    const threads = threadCpu();
    const cpu = cpuMs();
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await read();
    const round = { ms: (performance.now() - started) / CALLS, cpu: (cpuMs() - cpu) / CALLS };
    if (measuring) addThreadCpu(directThreads, threads, threadCpu());
    return round;
  };
  // An inner call: a loop of reads less the same loop awaiting nothing, run back to back.
  const innerRound = async () => {
    const threads = threadCpu();
    const empty = await timedBoth(repl(`for (let i = 0; i < ${CALLS}; i++) await null`));
    const between = threadCpu();
    const loop = await timedBoth(
      repl(`for (let i = 0; i < ${CALLS}; i++) await tools.read_file({ path: 'a.txt' })`),
    );
    if (measuring) {
      addThreadCpu(innerThreads, between, threadCpu());
      addThreadCpu(innerThreads, threads, between, -1);
    }
    return { ms: (loop.ms - empty.ms) / CALLS, cpu: (loop.cpu - empty.cpu) / CALLS };
  };
  try {
    // Warm both ways up (thread, sandbox, pipeline, file cache).
    for (let i = 0; i < 2; i++) {
      await directRound();
      await innerRound();
    }
    const directMs: number[] = [];
    const innerMs: number[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    measuring = true;
    for (let round = 0; round < ROUNDS; round++) {
      let directOne: { ms: number; cpu: number };
      let innerOne: { ms: number; cpu: number };
      if (round % 2 === 0) {
        directOne = await directRound();
        innerOne = await innerRound();
      } else {
        innerOne = await innerRound();
        directOne = await directRound();
      }
      directMs.push(directOne.ms);
      innerMs.push(innerOne.ms);
      ratios.push(innerOne.ms / directOne.ms);
      cpuRatios.push(innerOne.cpu / directOne.cpu);
    }
    // The same reads made together: one request message for them all, so the session's thread
    // runs their pipelines back to back without sleeping between them. What it spends a call then
    // is the pipeline's own cost, against what it spends a call when each call waits for the
    // script's next request.
    const session = String(process.pid);
    const together: number[] = [];
    for (let round = 0; round < TOGETHER_ROUNDS; round++) {
      const before = threadCpu();
      await timedBoth(
        repl(`const a = []; for (let i = 0; i < ${CALLS}; i++) a.push(null); await Promise.all(a)`),
      );
      const between = threadCpu();
      await timedBoth(
        repl(
          `const a = []; for (let i = 0; i < ${CALLS}; i++) a.push(tools.read_file({ path: 'a.txt' })); await Promise.all(a)`,
        ),
      );
      const after = threadCpu();
      const used = (at: Map<string, number>) => at.get(session) ?? 0;
      together.push((used(after) - used(between) - (used(between) - used(before))) / CALLS);
    }
    return {
      together: median(together),
      direct: median(directMs),
      inner: median(innerMs),
      ratio: median(ratios),
      middleMean: interquartileMean(ratios),
      cpuRatio: median(cpuRatios),
      spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)] as const,
      wide: [quantile(ratios, 0.1), quantile(ratios, 0.9)] as const,
      cpuSpread: [quantile(cpuRatios, 0.25), quantile(cpuRatios, 0.75)] as const,
      threads: threadBreakdown(innerThreads, directThreads, CALLS * ROUNDS),
    };
  } finally {
    await direct.close();
    await scripted.close();
  }
}

/** The first script of fresh sessions: the first of the process (cold thread), then on pooled warm threads. */
async function firstScripts(quiver: Quiver) {
  const first = async () => {
    const session = quiver.createSession({ personality: 'scripted' });
    try {
      return await timed(async () => (await session.execute([{ name: 'repl', args: { code: '1 + 1' } }]))[0]);
    } finally {
      await session.close();
    }
  };
  // What any session's first call costs (its permission engine, its log): the part not the repl's.
  const firstDirect = async () => {
    const session = quiver.createSession({ personality: 'direct' });
    try {
      return await timed(
        async () => (await session.execute([{ name: 'read_file', args: { path: 'a.txt' } }]))[0],
      );
    } finally {
      await session.close();
    }
  };
  const cold = await first();
  const warm: number[] = [];
  const direct: number[] = [];
  for (let round = 0; round < FIRST_SCRIPT_ROUNDS; round++) {
    warm.push(await first());
    direct.push(await firstDirect());
  }
  return { cold, warm: median(warm), firstDirect: median(direct) };
}

export async function run(): Promise<void> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'quiver-repl-calls-bench-')));
  try {
    writeFileSync(join(workspace, 'a.txt'), 'alpha\nbeta\ngamma\n');
    writeFileSync(join(workspace, 'quiver.yaml'), 'defaultPersonality: scripted\n');
    mkdirSync(join(workspace, 'personalities'));
    writeFileSync(
      join(workspace, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [tools-code, tools-repl]\nrepl: true\npermissions:\n  allow: [repl, read_file]\n',
    );
    writeFileSync(
      join(workspace, 'personalities/direct.yaml'),
      'id: direct\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
    );
    const quiver = await createQuiver({ workspace, trustProject: true });
    try {
      const loadBefore = loadavg()[0] ?? 0;
      const starts = await firstScripts(quiver);
      const calls = await measure(quiver);
      const loadAfter = loadavg()[0] ?? 0;
      console.table([
        { what: 'direct session.execute (read_file)', ms: round(calls.direct, 3), ratio: 1 },
        {
          what: 'inner call from a script',
          ms: round(calls.inner, 3),
          ratio: round(calls.ratio),
        },
        {
          what: 'first script of a session, warm thread',
          ms: round(starts.warm, 2),
          ratio: round(starts.warm / calls.inner, 1),
        },
        {
          what: 'first direct call of a session (session set-up)',
          ms: round(starts.firstDirect, 2),
          ratio: round(starts.firstDirect / calls.inner, 1),
        },
        {
          what: 'first script of the process, cold thread',
          ms: round(starts.cold, 1),
          ratio: round(starts.cold / calls.inner, 1),
        },
      ]);
      console.log(
        `inner call / direct execute: ${round(calls.ratio)}× (median of ${ROUNDS} rounds' ratios of ${CALLS} calls each way, mean of the middle half ${round(calls.middleMean)}×, middle half ${round(calls.spread[0])}–${round(calls.spread[1])}×, 10th–90th percentile ${round(calls.wide[0])}–${round(calls.wide[1])}×; target ≤ 1.3×; CPU time of all threads: ${round(calls.cpuRatio)}×, middle half ${round(calls.cpuSpread[0])}–${round(calls.cpuSpread[1])}×); first script on a warm thread / inner call: ${round(starts.warm / calls.inner, 1)}× (target ≤ 10×; a session's first direct call alone: ${round(starts.firstDirect / calls.inner, 1)}×); first script of the process: ${Math.round(starts.cold)} ms; load average ${round(loadBefore, 1)} → ${round(loadAfter, 1)} on ${availableParallelism()} cores`,
      );
      const { threads } = calls;
      if (threads.session.direct > 0)
        console.log(
          `CPU per call by thread (µs, all rounds): session thread ${threads.session.inner} inner / ${threads.session.direct} direct; sandbox thread ${threads.sandbox} inner; other threads (libuv's pool, the log writer, V8's) ${threads.others.inner} inner / ${threads.others.direct} direct; session thread a call when the script makes its ${CALLS} calls together (no sleep between them): ${Math.round(calls.together)}; the session thread's context switches a call (voluntary + involuntary), each tens of µs of kernel time on a VM: ${threads.switches.inner.join(' + ')} inner / ${threads.switches.direct.join(' + ')} direct`,
        );
    } finally {
      await quiver.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
