import { clip, FAILURE, MIN_RECORDS, SEPARATOR, wholeRows, withinBudget } from './record-lines.js';
import { counted, type RecognizerInput } from './reducer-input.js';

/**
 * Tables: a header, then one row a record (`dpkg -l`, `pip list`, `ps`). Every row's key is kept before
 * any other column; rows with rare values and the largest rows by a number column come next.
 */

function fields(line: string): string[] {
  return line.trim().split(/\s+/);
}

/** A header line, then rows with at least as many fields: the header and every row's first distinct column. */
/** Delimited text (TSV, psql's `|` tables, CSV): nearly every line has as many tabs, bars or commas as the first. */
function splitterOf(lines: readonly string[]): (line: string) => string[] {
  const content = lines.filter((line) => line.trim() !== '');
  const first = content[0];
  if (first === undefined) return fields;
  for (const delimiter of ['\t', '|', ',']) {
    const count = first.split(delimiter).length - 1;
    if (count < 1) continue;
    const same = content.filter((line) => line.split(delimiter).length - 1 === count).length;
    if (same >= content.length * 0.9) return (line) => line.split(delimiter).map((field) => field.trim());
  }
  return fields;
}

/** Hex addresses or offsets (`0000000000001169`, `1004:`, `0x7ffd`): nine in ten values, some with a letter or zero-padded. */
function looksLikeAddresses(values: readonly string[]): boolean {
  const hex = values.filter((value) => /^(?:0x)?[0-9a-f]{3,16}:?$/i.test(value));
  if (hex.length < values.length * 0.9) return false;
  return (
    hex.some((value) => /[a-f]/i.test(value.replace(/^0x/i, ''))) ||
    hex.every((value) => /^0{2,}/.test(value))
  );
}

/** A key that is a number with the same text around it in each row (`12`, `#12`, `12:`, `v12`). */
const NUMBERED_KEY = /^(\D{0,3}?)(\d{1,15})(\D{0,3})$/;

/** Keys that count up one by one (`0 1 2 … 2999`, `#2 #3 … #581`) as ranges (`0–2999`): the same keys, shorter. */
function integerRuns(values: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < values.length; ) {
    const start = values[index] as string;
    const first = NUMBERED_KEY.exec(start);
    let end = index;
    if (first)
      while (end + 1 < values.length) {
        const next = NUMBERED_KEY.exec(values[end + 1] as string);
        const current = NUMBERED_KEY.exec(values[end] as string);
        if (!next || !current || next[1] !== first[1] || next[3] !== first[3]) break;
        if (Number(next[2]) !== Number(current[2]) + 1) break;
        end++;
      }
    out.push(end - index >= 2 ? `${start}–${values[end]}` : start);
    if (end - index === 1) out.push(values[end] as string);
    index = end + 1;
  }
  return out;
}

/** How many keys a list of keys and ranges stands for. */
function keysIn(shown: readonly string[]): number {
  return shown.reduce((sum, item) => {
    const [from, to] = item.split('–');
    const range = to === undefined ? undefined : [NUMBERED_KEY.exec(from as string), NUMBERED_KEY.exec(to)];
    return sum + (range?.[0] && range[1] ? Number(range[1][2]) - Number(range[0][2]) + 1 : 1);
  }, 0);
}

/** Where each whitespace-separated field of a line starts and ends. */
function spansOf(line: string): [number, number][] {
  return [...line.matchAll(/\S+/g)].map((match) => [match.index, match.index + match[0].length]);
}

/**
 * Whether the header's name for a column sits over that column's values (`  PID` over `    1`),
 * not over another's: names with spaces in them (`First Load JS`) shift the fields a split finds.
 * Delimited text (tabs, bars, commas) always lines up.
 */
function nameLinesUp(
  header: string,
  rows: readonly string[],
  column: number,
  split: (line: string) => string[],
): boolean {
  if (split !== fields) return true;
  const name = spansOf(header)[column];
  if (!name) return false;
  const sample = rows.slice(0, 20);
  const over = sample.filter((row) => {
    const value = spansOf(row)[column];
    return value !== undefined && value[0] < name[1] && name[0] < value[1];
  });
  return over.length >= sample.length / 2;
}

/** How far down a table's line of column names is looked for (a build log may precede it). */
const MAX_HEADER_LINE = 30;
/** A column of at most this many values is a category (a status, a kind, a marker). */
const MAX_CATEGORIES = 8;

/**
 * The rows holding a value few rows share in a column of few values, next to one most rows share
 * (a pod's `CrashLoopBackOff` among `Running`, a route's `ƒ` among `○`): what sets them apart is
 * what the table is read for, so they are kept whole.
 */
function rareValueRows(rows: readonly string[], split: (line: string) => string[], width: number) {
  // Each row's rarest value: the rarest rows are kept first when not all fit.
  const rarity = new Map<string, number>();
  const found: { value: string; count: number }[] = [];
  for (let column = 0; column < width; column++) {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const value = split(row)[column] as string;
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    // A long table has more categories (a lockfile's licenses): one value for every 20 rows at most.
    if (counts.size < 2 || counts.size > Math.max(MAX_CATEGORIES, Math.floor(rows.length / 20))) continue;
    if (Math.max(...counts.values()) < rows.length * 0.5) continue;
    const few = [...counts].filter(([, count]) => count <= Math.max(2, rows.length * 0.1));
    const taken = few.reduce((sum, [, count]) => sum + count, 0);
    if (few.length === 0 || taken > rows.length * 0.25) continue;
    for (const [value, count] of few) {
      found.push({ value, count });
      for (const row of rows)
        if (split(row)[column] === value) rarity.set(row, Math.min(rarity.get(row) ?? count, count));
    }
  }
  const byRarity = [...rarity].sort((a, b) => a[1] - b[1]).map(([row]) => row);
  // The values named in the heading: those several rows share first, at most four.
  const named = [...found].sort((a, b) => b.count - a.count).slice(0, 4);
  return {
    byRarity,
    inOrder: (kept: ReadonlySet<string>) => rows.map(clip).filter((row) => kept.has(row)),
    values: `${named.map(({ value, count }) => `${value} ×${count}`).join(', ')}${found.length > named.length ? ', …' : ''}`,
  };
}

/**
 * A table: a header line of column names (or none: rows from the first line that has the table's
 * width), then rows with at least as many fields. Every row's first distinct column, then whole
 * rows from the start and the end within the budget.
 */
export function reduceTable(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const split = splitterOf(lines);
  let best: { header: number; width: number; named: boolean } | undefined;
  // A line of column names (no field a number: `PID PPID STAT COMMAND`) is the header before any
  // wider data row (whose last column, a command line, splits into more fields).
  for (const named of [true, false]) {
    for (let header = 0; header < Math.min(MAX_HEADER_LINE, lines.length); header++) {
      const names = split(lines[header] as string);
      const width = names.length;
      if (width < 2 || (best && width <= best.width)) continue;
      if (named && names.some((name) => name === '' || /^[\d.,:%-]+$/.test(name))) continue;
      // Past the first lines (a build log above the table), a line of names holds words only: no
      // digit or path, which a row of the table would have.
      if (named && header >= 10 && names.some((name) => /[\d/]/.test(name))) continue;
      const rest = lines
        .slice(header + (named ? 1 : 0))
        .filter((line) => line.trim() !== '' && !SEPARATOR.test(line));
      const rows = rest.filter((line) => split(line).length >= width);
      if (rows.length >= MIN_RECORDS && rows.length >= rest.length * 0.9) best = { header, width, named };
    }
    if (best) break;
  }
  if (!best) return undefined;
  const { header, width, named } = best;
  // Without a line of column names, lines of the same shape may be a log, not a table: one that
  // reports a failure is left to the reducers that keep failure lines whole.
  if (!named && lines.some((line) => FAILURE.test(line))) return undefined;
  // Without a line of names, the line found is the first row; what precedes it is a preamble (`Listing...`).
  const body = lines.slice(named ? header + 1 : header);
  const rows = body.filter((line) => !SEPARATOR.test(line) && split(line).length >= width);
  const others = body.filter(
    (line) => line.trim() !== '' && !SEPARATOR.test(line) && split(line).length < width,
  );
  const columns = named ? split(lines[header] as string) : [];
  // Options, one a line (`curl --help all`): left to the reducer that keeps a text's outline.
  if (rows.filter((row) => /^\s*-/.test(row)).length > rows.length * 0.6) return undefined;
  let addresses = false;
  for (let column = 0; column < width; column++) {
    const values = rows.map((row) => split(row)[column] as string);
    // The last column (a command line, a description) is a key only after address columns.
    if (column === width - 1 && !addresses) break;
    if (new Set(values).size < values.length * 0.95) continue;
    // Addresses and offsets (`objdump -d`, `nm`, a hex dump) tell rows apart but name nothing.
    if (looksLikeAddresses(values)) {
      addresses = true;
      continue;
    }
    const preamble = lines.slice(0, named ? header + 1 : header).map(clip);
    // When not every key fits, part of the budget stays for whole rows from the start and the end.
    const keys = integerRuns(values);
    const shown = withinBudget(
      keys,
      keys.join(' ').length <= input.budget ? input.budget : input.budget * 0.7,
      ' ',
    );
    const hidden = values.length - keysIn(shown);
    // Names with spaces in them (`First Load JS`) do not line up with the fields: the column is
    // then named by its place.
    const label =
      named && nameLinesUp(lines[header] as string, rows, column, split)
        ? columns[column]
        : `column ${column + 1}`;
    const keyed = [
      `${counted(rows.length, 'row', input.partial)}; ${label} of each${hidden > 0 ? ` (the first ${keysIn(shown).toLocaleString('en-US')})` : ''}:`,
      `${shown.join(' ')}${hidden > 0 ? ` … and ${hidden.toLocaleString('en-US')} more` : ''}`,
    ];
    const other =
      others.length > 0 ? [`other lines (${others.length}):`, ...others.slice(0, 20).map(clip)] : [];
    // What the budget leaves after every row's key: whole rows (the other columns: a process's
    // command, a package's version), from the first and the last.
    const rare = rareValueRows(rows, split, width);
    // Up to half the budget on top of it: whole rows from both ends keep what they had.
    const rareKept = new Set(
      rare.byRarity.length > 0 ? withinBudget(rare.byRarity.map(clip), input.budget / 2, '\n') : [],
    );
    const rareLines =
      rareKept.size > 0
        ? [
            `rows with a value few rows have (${rare.values})${rareKept.size < rare.byRarity.length ? `, ${rareKept.size} of ${rare.byRarity.length}` : ''}:`,
            ...rare.inOrder(rareKept),
          ]
        : [];
    const used = [...preamble, ...keyed, ...other].join('\n').length;
    return [...preamble, ...keyed, ...rareLines, ...wholeRows(rows, input.budget - used), ...other].join(
      '\n',
    );
  }
  // Only a table that names its columns says what its numbers measure; a listing without names
  // (`ls -l`, a trace) is read in its own order by the generic cut.
  return named ? largestRows(input, lines.slice(0, header + 1), rows, split, width, columns) : undefined;
}

/** A field's number: the whole field, or its last word (`import time:   223` is 223). */
const NUMBER_FIELD = /(?:^|\s)(\d+(?:\.\d+)?)\s*(?:[a-zµ%]{1,3})?$/i;

/**
 * A table whose rows no column tells apart, but which measures something (`python -X importtime`'s
 * microseconds, a profile's times): the rows with the largest values of its numeric column that
 * spreads widest, then the first and last rows as printed.
 */
function largestRows(
  input: RecognizerInput,
  preamble: readonly string[],
  rows: readonly string[],
  split: (line: string) => string[],
  width: number,
  columns: readonly string[],
): string | undefined {
  let best: { column: number; values: number[]; spread: number } | undefined;
  for (let column = 0; column < width; column++) {
    const values = rows.map((row) => Number(NUMBER_FIELD.exec(split(row)[column] ?? '')?.[1] ?? Number.NaN));
    const numbers = values.filter((value) => !Number.isNaN(value));
    if (numbers.length < rows.length * 0.9) continue;
    const spread = Math.max(...numbers) - Math.min(...numbers);
    if (spread > 0 && (!best || spread > best.spread)) best = { column, values, spread };
  }
  if (!best) return undefined;
  const { column, values } = best;
  const label = columns[column] ?? `column ${column + 1}`;
  const order = rows.map((row, index) => ({ row, index, value: values[index] ?? Number.NaN }));
  const largest = order
    .filter((entry) => !Number.isNaN(entry.value))
    .sort((a, b) => b.value - a.value || a.index - b.index);
  const kept = new Set<number>();
  let used = preamble.join('\n').length;
  for (const entry of largest) {
    if (kept.size >= 3 && used + entry.row.length + 1 > input.budget) break;
    kept.add(entry.index);
    used += entry.row.length + 1;
  }
  kept.add(0);
  kept.add(rows.length - 1);
  return [
    ...preamble.map(clip),
    `${counted(rows.length, 'row', input.partial)}; the ${kept.size} with the largest ${label.trim()} and the first and last, as printed:`,
    ...[...kept].sort((a, b) => a - b).map((index) => clip(rows[index] as string)),
    `[… ${(rows.length - kept.size).toLocaleString('en-US')} more rows …]`,
  ].join('\n');
}
