// Timing helpers every benchmark shares: medians and quantiles of samples, the median latency of
// a tinybench task, and the rounding and percentages printed in tables.
import type { Bench } from 'tinybench';

type Task = Bench['tasks'][number];

/** A task's median latency in milliseconds, as tinybench reports it; throws when it did not complete. */
export function p50Ms(task: Task | undefined, name = task?.name ?? 'unknown'): number {
  const result = task?.result;
  if (result === undefined || !('latency' in result))
    throw new Error(`benchmark task "${name}" did not complete`);
  return result.latency.p50;
}

/** A task's median latency in microseconds. */
export function p50(task: Task): number {
  return p50Ms(task) * 1000;
}

/** The median latency in milliseconds of each task of a bench, in the order they were added. */
export function p50sMs(bench: Bench): number[] {
  return bench.tasks.map((task) => p50Ms(task));
}

/** The median latency in milliseconds of the task named `name` (or, with `prefix`, starting with it). */
export function p50MsOf(bench: Bench, name: string, match: 'exact' | 'prefix' = 'exact'): number {
  const task = bench.tasks.find((candidate) =>
    match === 'exact' ? candidate.name === name : candidate.name.startsWith(name),
  );
  return p50Ms(task, name);
}

/** The middle sample (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The sample below which a fraction `q` of the samples lie (0.95 for p95). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

/** Rounded to `decimals` places (two by default), for tables. */
export function round(value: number, decimals = 2): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** A fraction as a percentage with one decimal: 0.256 → "25.6%". */
export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** Milliseconds per run of `task`, averaged over `rounds` runs after one warm-up run. */
export function averageMs(task: () => void, rounds = 20): number {
  task();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) task();
  return (performance.now() - started) / rounds;
}
