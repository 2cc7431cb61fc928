/** Throughput of the MCP bridge benchmark's sides: calls per second with a fixed number in flight. */
import { median } from './measure.js';

export const THROUGHPUT_MS = 1_000;
export const THROUGHPUT_ROUNDS = 3;
export const IN_FLIGHT = 10;

type Call = () => Promise<unknown>;

/** Calls completed per second with `IN_FLIGHT` calls always under way (a closed loop). */
async function callsPerSecond(call: Call): Promise<number> {
  let completed = 0;
  const until = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < until) {
      await call();
      completed += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return completed / ((performance.now() - started) / 1_000);
}

/** Throughput of both sides in alternating rounds; the median of each. */
export async function throughput(sides: {
  raw: Call;
  bridge: Call;
}): Promise<{ raw: number; bridge: number }> {
  const rounds = { raw: [] as number[], bridge: [] as number[] };
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    const order = round % 2 === 0 ? (['raw', 'bridge'] as const) : (['bridge', 'raw'] as const);
    for (const side of order) rounds[side].push(await callsPerSecond(sides[side]));
  }
  return { raw: median(rounds.raw), bridge: median(rounds.bridge) };
}
