import { counted, type Recognizer, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

/**
 * Tables of counts, one row a line with the count first (`wc -l`, `du -h`, `uniq -c`,
 * `sort | uniq -c | sort -rn`): the total rows and the rows with the largest counts are kept as
 * printed, the others counted. A reader of such a table asks for the total and the biggest.
 */

const COUNT_ROW = /^\s*(\d+(?:[.,]\d+)?)([KMGTP])?(?:i?B)?\s+(\S.*)$/;
const UNIT: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40, P: 2 ** 50 };
const MIN_ROWS = 20;
/** Share of the non-empty lines that must be rows for the output to be read as a table. */
const MIN_ROW_SHARE = 0.9;

interface Row {
  line: string;
  value: number;
  label: string;
  index: number;
}

/** A line of two or more column names (`PID USER %CPU TIME+ COMMAND`, cProfile's `filename:lineno(function)`). */
const HEADER = /^\s*[A-Za-z%#][\w%#.+:()/-]*(?:\s*\|?\s+\|?\s*[A-Za-z%#][\w%#.+:()/-]*)+\s*\|?\s*$/;

/** A label made of numbers and separators only. */
const NUMBERS_ONLY = /^[\d.,:/+-]+(?:\s+[\d.,:/+-]+)*$/;

/** What follows a process id in `strace -f` (a call, a resumed call, a signal, an exit): not a count. */
const TRACE_EVENT = /^(?:[a-z_][a-z0-9_]*\(|<\.\.\. |\+\+\+ |--- )/;

function rowOf(line: string, index: number): Row | undefined {
  const match = COUNT_ROW.exec(line);
  if (!match || TRACE_EVENT.test(match[3] as string)) return undefined;
  const value = Number((match[1] as string).replace(',', '.')) * (match[2] ? (UNIT[match[2]] ?? 1) : 1);
  return { line: line.trimEnd(), value, label: (match[3] as string).trim(), index };
}

export const reduceCountTable: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const rows = lines.map(rowOf).filter((row): row is Row => row !== undefined);
  if (rows.length < MIN_ROWS || rows.length < lines.length * MIN_ROW_SHARE) return undefined;
  // A table whose rows are headed by column names (`ps`'s `PID STAT COMMAND`, `top`'s under its
  // summary lines) numbers things, not counts them.
  // The header may follow a summary line that looks like a row (cProfile's `204073 function calls`).
  const firstLines = lines.slice(0, (rows[Math.min(2, rows.length - 1)] as Row).index);
  if (firstLines.some((line, index) => rowOf(line, index) === undefined && HEADER.test(line)))
    return undefined;
  // Rows of numbers only (`3000 1 110.00`) or of several tab-separated columns (a SQL dump's COPY
  // block, a TSV file) are records of a data table, not counts.
  if (rows.filter((row) => NUMBERS_ONLY.test(row.label) || row.label.includes('\t')).length > rows.length / 2)
    return undefined;
  // `wc` and `du -c` end with a `total` row; `du` without -c ends with the directory itself.
  const totals = rows.filter((row) => /^total$/i.test(row.label));
  const others = rows.filter((row) => !totals.includes(row));
  const byCount = [...others].sort((a, b) => b.value - a.value || a.index - b.index);
  const heading = `${counted(others.length, 'row', input.partial)}${totals.length > 0 ? ' and a total' : ''}, largest first:`;
  const kept: Row[] = [];
  let used = heading.length + totals.reduce((sum, row) => sum + row.line.length + 1, 0);
  for (const row of byCount) {
    if (kept.length >= 3 && used + row.line.length + 1 > input.budget) break;
    kept.push(row);
    used += row.line.length + 1;
  }
  // The first and the last row as printed too: a listing in its own order (files by name, one
  // `wc` batch after another) ends where a reader looks, whatever the counts.
  const ends = [others[0], others.at(-1)].filter(
    (row, index, both): row is Row => row !== undefined && !kept.includes(row) && both.indexOf(row) === index,
  );
  kept.push(...ends);
  const rest = others.length - kept.length;
  const unparsed = lines.length - rows.length;
  return [
    heading,
    ...kept.map((row) => row.line),
    ...(rest > 0 ? [`… and ${rest.toLocaleString('en-US')} smaller rows`] : []),
    ...totals.map((row) => row.line),
    ...(unparsed > 0 ? lines.filter((line) => rowOf(line, 0) === undefined).slice(0, 5) : []),
  ].join('\n');
};
