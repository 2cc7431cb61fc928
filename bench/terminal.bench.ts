import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProcessBackend, reduceTerminalOutput, terminalTool } from '@quiver/tools-terminal';
import type { ToolContext } from '@quiver/types';
import { Bench } from 'tinybench';

const TEN_MB = 10 * 1024 * 1024;

function repeatTo(block: string, bytes: number): string {
  return block.repeat(Math.ceil(bytes / block.length)).slice(0, bytes);
}

/** A log-like output no recognizer claims, and a failing vitest run with thousands of failures. */
function outputs(): { name: string; command: string; exitCode: number; output: string }[] {
  const logLine = (n: number) =>
    `2026-11-22T04:00:${String(n % 60).padStart(2, '0')}Z info request ${n} served in ${n % 97} ms\n`;
  let log = '';
  for (let n = 0; log.length < TEN_MB; n++) log += logLine(n);
  const failure =
    " FAIL  src/cart.test.ts > cart > applies the discount code\nAssertionError: expected 90 to be 85 // Object.is equality\n\n- Expected\n+ Received\n\n- 85\n+ 90\n\n ❯ src/cart.test.ts:12:20\n     10|   it('applies the discount code', () => {\n     11|     const cart = createCart();\n     12|     expect(total(cart)).toBe(85);\n       |                    ^\n\n⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n\n";
  const vitest = `${repeatTo(failure, TEN_MB - 200)}\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n`;
  return [
    { name: 'generic log', command: 'cat server.log', exitCode: 0, output: log.slice(0, TEN_MB) },
    { name: 'failing vitest run', command: 'npx vitest run', exitCode: 1, output: vitest },
  ];
}

async function reducerThroughput(): Promise<void> {
  for (const sample of outputs()) {
    const bench = new Bench({ time: 1_000, warmupTime: 200 });
    bench.add('baseline: split into lines', () => {
      sample.output.split('\n');
    });
    bench.add('reduceTerminalOutput', () => {
      reduceTerminalOutput(sample);
    });
    await bench.run();
    const [baseline, reducer] = bench.tasks.map((task) =>
      task.result.state === 'completed' ? task.result.latency.mean : Number.NaN,
    );
    const megabytes = sample.output.length / 1024 / 1024;
    const reduced = reduceTerminalOutput(sample).length;
    console.log(
      `reducer on a 10 MB ${sample.name}: ${(megabytes / ((reducer as number) / 1000)).toFixed(0)} MB/s ` +
        `(split baseline ${(megabytes / ((baseline as number) / 1000)).toFixed(0)} MB/s; ${((reducer as number) / (baseline as number)).toFixed(1)}× the baseline time) → ${reduced.toLocaleString('en-US')} chars`,
    );
  }
}

async function peakRssDelta(
  command: string,
  ctx: ToolContext,
): Promise<{ deltaMb: number; seconds: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  await terminalTool.execute({ command }, ctx);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { deltaMb: Math.max(0, peak - before) / 1024 / 1024, seconds };
}

async function memoryOfHugeOutput(): Promise<void> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-terminal-bench-')));
  try {
    const backend = createProcessBackend({
      roots: [base],
      dataDir: path.join(base, '.quiver'),
      sandbox: 'off',
    });
    const processHandle = await backend.resolve({
      capability: 'process',
      declaration: true,
      toolName: 'terminal',
      sessionId: 'bench',
      personalityId: 'bench',
      agentId: 'main',
    });
    const ctx = {
      callId: 'bench',
      sessionId: 'bench',
      personalityId: 'bench',
      agent: { kind: 'main', id: 'main' },
      turn: 1,
      signal: new AbortController().signal,
      emit: () => undefined,
      budget: 80_000,
      dryRun: false,
      capabilities: { process: processHandle, secrets: { granted: {} } },
      attachments: [],
      session: { get: () => undefined, set: () => undefined, delete: () => undefined },
    } satisfies ToolContext;
    await terminalTool.execute({ command: 'true' }, ctx);
    const small = await peakRssDelta("head -c 1M /dev/zero | tr '\\0' x", ctx);
    const huge = await peakRssDelta("head -c 1G /dev/zero | tr '\\0' x", ctx);
    console.log(
      `terminal peak RSS growth: 1 GB of output ${huge.deltaMb.toFixed(1)} MB (${huge.seconds.toFixed(1)} s, ${(1024 / huge.seconds).toFixed(0)} MB/s to the spill file) ` +
        `vs 1 MB of output ${small.deltaMb.toFixed(1)} MB; ratio ${(Math.max(huge.deltaMb, 1) / Math.max(small.deltaMb, 1)).toFixed(1)}× (floored at 1 MB) for 1024× the output`,
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  // Memory first, before the reducer samples have grown the heap.
  await memoryOfHugeOutput();
  await reducerThroughput();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
