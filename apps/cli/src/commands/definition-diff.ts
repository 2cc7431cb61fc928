/** Above this many line pairs the diff shows every line as removed and added instead of aligning. */
const MAX_ALIGNED_PAIRS = 250_000;

/**
 * A line diff of two texts: `  ` kept, `- ` removed, `+ ` added, aligned on their longest
 * common subsequence so that a one-word change shows as one changed line.
 */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > MAX_ALIGNED_PAIRS)
    return [...a.map((line) => `- ${line}`), ...b.map((line) => `+ ${line}`)];
  const common: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(`  ${a[i]}`);
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      lines.push(`+ ${b[j]}`);
      j += 1;
    } else {
      lines.push(`- ${a[i]}`);
      i += 1;
    }
  }
  return lines;
}
