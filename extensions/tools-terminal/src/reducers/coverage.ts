/**
 * The coverage table a test run prints under its results (istanbul's text reporter: jest
 * `--coverage`, vitest's v8 and istanbul providers, nyc, c8): `File | % Stmts | % Branch | % Funcs |
 * % Lines | Uncovered Line #s`, an `All files` row, a row per file. A run's summary keeps its
 * totals and the least covered files, with how many better covered ones it leaves out.
 */

const HEADER = /^\s*File\s*\|\s*% Stmts\s*\|/;
const SEPARATOR = /^[-|=\s]+$/;
const TOTAL = /^\s*All files\s*\|/;
/** Rows kept at most, least covered first. */
const MAX_ROWS = 40;

function linesPercent(row: string): number {
  const cells = row.split('|').map((cell) => cell.trim());
  const value = Number(cells[4]);
  return Number.isFinite(value) ? value : 100;
}

/** The coverage table of `lines`, reduced to fit `budget` characters; undefined when there is none. */
export function coverageSummary(lines: readonly string[], budget: number): string[] | undefined {
  const header = lines.findIndex((line) => HEADER.test(line));
  if (header < 0) return undefined;
  const rows: string[] = [];
  let total: string | undefined;
  for (let index = header + 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (SEPARATOR.test(line)) {
      if (rows.length > 0 || total !== undefined) break;
      continue;
    }
    if (!line.includes('|')) break;
    if (TOTAL.test(line)) total = line.trimEnd();
    else rows.push(line.trimEnd());
  }
  if (total === undefined && rows.length === 0) return undefined;
  // Least covered first (by % Lines), keeping the printed order among equals.
  const ranked = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => linesPercent(a.row) - linesPercent(b.row) || a.index - b.index);
  const kept: string[] = [];
  let used = (lines[header] as string).length + (total?.length ?? 0);
  for (const { row } of ranked) {
    if (kept.length >= MAX_ROWS || (kept.length >= 3 && used + row.length + 1 > budget)) break;
    kept.push(row);
    used += row.length + 1;
  }
  const left = ranked.slice(kept.length);
  const best = left.length === 0 ? undefined : Math.min(...left.map(({ row }) => linesPercent(row)));
  return [
    `coverage (${rows.length} file${rows.length === 1 ? '' : 's'}, least covered first):`,
    (lines[header] as string).trimEnd(),
    ...(total === undefined ? [] : [total]),
    ...kept,
    ...(left.length > 0 ? [`[… ${left.length} more files, each at ${best}% of lines or more]`] : []),
  ];
}
