import type { Bench } from 'tinybench';

/** A task's median latency in microseconds (tinybench reports milliseconds). */
export function p50(task: Bench['tasks'][number]): number {
  const result = task.result;
  if (result === undefined || !('latency' in result))
    throw new Error(`benchmark task "${task.name}" did not complete`);
  return result.latency.p50 * 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Two decimals, for tables. */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
