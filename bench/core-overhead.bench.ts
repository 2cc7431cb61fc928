import { pathToFileURL } from 'node:url';
import { DefaultToolRegistry, type ExecuteContext } from '@quiver/core';
import type { ToolCall } from '@quiver/types';
import { Bench } from 'tinybench';
import { directContext, echo } from './echo-fixture.js';
import { p50sMs, round } from './measure.js';

/**
 * What executeParallel adds per call on top of the tool's own execute, for batches of 1, 10 and
 * 100. Medians (p50) rather than means, so that GC pauses and other load on the machine do not
 * dominate a figure measured in microseconds.
 */

const TARGET_MICROSECONDS_PER_CALL = 5;
const BATCH_SIZES = [1, 10, 100] as const;

const executeContext: ExecuteContext = {
  sessionId: 'bench',
  personalityId: 'bench',
  agent: { kind: 'main', id: 'bench' },
  turn: 1,
};
// What the runtime passes: a caller signal, which makes every async call race its abort.
const signalledContext: ExecuteContext = { ...executeContext, signal: new AbortController().signal };

export async function run(): Promise<void> {
  const registry = new DefaultToolRegistry();
  registry.register(echo);
  const rows: Array<Record<string, string | number>> = [];
  let allMet = true;

  const variants = BATCH_SIZES.flatMap((size) => [
    { size, label: 'no caller signal', context: executeContext },
    { size, label: 'caller signal', context: signalledContext },
  ]);
  for (const { size, label, context } of variants) {
    const calls: ToolCall[] = Array.from({ length: size }, (_, index) => ({
      id: `call-${index}`,
      name: 'echo',
      args: { text: `payload ${index}` },
    }));
    const bench = new Bench({ time: 1000, warmupTime: 300 });
    bench
      .add(`direct execute ×${size}`, async () => {
        await Promise.all(calls.map((call) => echo.execute(call.args as { text: string }, directContext)));
      })
      .add(`executeParallel ×${size}`, async () => {
        await registry.executeParallel(calls, context);
      });
    globalThis.gc?.();
    await bench.run();
    const [direct, registryTask] = p50sMs(bench);
    if (direct === undefined || registryTask === undefined) throw new Error('missing benchmark results');
    const overheadMicroseconds = ((registryTask - direct) * 1000) / size;
    const met = overheadMicroseconds < TARGET_MICROSECONDS_PER_CALL;
    allMet &&= met;
    rows.push({
      calls: size,
      context: label,
      'direct µs/batch (p50)': round(direct * 1000),
      'executeParallel µs/batch (p50)': round(registryTask * 1000),
      ratio: `${round(registryTask / direct)}×`,
      'overhead µs/call': round(overheadMicroseconds),
      [`target < ${TARGET_MICROSECONDS_PER_CALL} µs`]: met ? 'met' : 'MISSED',
    });
  }

  console.log('\ncore overhead: executeParallel vs calling execute directly');
  console.table(rows);
  console.log(
    allMet
      ? `target met: under ${TARGET_MICROSECONDS_PER_CALL} µs per call at every batch size`
      : 'target MISSED at some batch size',
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
