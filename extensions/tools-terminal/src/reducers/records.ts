import { GENERIC_THRESHOLD_BYTES } from './generic.js';
import {
  counted,
  DEFAULT_REDUCER_BUDGET,
  plural,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/**
 * Outputs no specific reducer knows, made of repeated records: every record's key line is kept
 * before any detail is dropped. Five shapes: sections (`ls -laR`: a `dir:` line, then its
 * entries), timestamped log records (a line starting with a time, continuation lines after it),
 * blocks of `Label: value` lines (`stat`, `apt show`), lines opened by a hash (`git reflog`), and tables (a header, then one row a record:
 * `dpkg -l`, `pip list`, `ps`).
 */

const MAX_KEY_CHARS = 160;
const MIN_RECORDS = 20;
const TIMESTAMP =
  /^\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?/;
const SEPARATOR = /^[-=+|\s]+$/;
const SECTION_HEADER = /^\S.*:$/;
const FAILURE =
  /\b(?:FATAL|CRITICAL|ERROR|FAIL(?:ED|URE)?)\b|^Traceback \(|^\w+(?:Error|Exception): |^\s+at \S+ \(/;
const LEVEL = /\b(FATAL|CRITICAL|ERROR|ERR|WARN(?:ING)?|FAIL(?:ED|URE)?)\b/i;

function clip(line: string): string {
  return line.length <= MAX_KEY_CHARS ? line : `${line.slice(0, MAX_KEY_CHARS)}…`;
}

/** The first items whose joined length stays within `budget` (at least one). */
function withinBudget(items: readonly string[], budget: number, separator: string): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const item of items) {
    if (kept.length > 0 && used + item.length + separator.length > budget) break;
    kept.push(item);
    used += item.length + separator.length;
  }
  return kept;
}

function contentLines(input: RecognizerInput): string[] {
  return input.lines.filter((line) => !WINDOW_CUT_LINE.test(line));
}

/** `ls -R`: every section header with the number of entries under it. */
function reduceSections(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const sections: { header: string; records: number }[] = [];
  let current: { header: string; records: number } | undefined;
  for (const [index, line] of lines.entries()) {
    if (SECTION_HEADER.test(line) && (index === 0 || lines[index - 1] === '')) {
      current = { header: line.slice(0, -1), records: 0 };
      sections.push(current);
    } else if (current && line.trim() !== '' && !/^total \d/.test(line) && !/ \.\.?$/.test(line)) {
      current.records++;
    }
  }
  if (sections.length < 3) return undefined;
  // `ls -R` heads each section with a directory (`./src/api:`, `/usr/share/doc:`); prose whose
  // paragraphs end with a colon (a document printed whole) is not a listing.
  const directories = sections.filter((section) => /\/|^\./.test(section.header)).length;
  if (directories < sections.length / 2) return undefined;
  const records = sections.reduce((sum, section) => sum + section.records, 0);
  const heading = `${counted(sections.length, 'section', input.partial)}, ${counted(records, 'record', input.partial)}:`;
  const shown = withinBudget(
    sections.map((s) => `${clip(s.header)}: ${plural(s.records, 'record')}`),
    input.budget,
    '\n',
  );
  const hidden = sections.length - shown.length;
  return [heading, ...shown, ...(hidden > 0 ? [`[… ${plural(hidden, 'more section')} not shown]`] : [])].join(
    '\n',
  );
}

/** The record's kind: the first word after the time, or the second when the first is the same everywhere (a host name). */
function kindsOf(keys: readonly string[]): Map<string, number> {
  const words = keys.map((key) =>
    key
      .replace(TIMESTAMP, '')
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .map((word) => word.replace(/\[\d+\]/, '').replace(/:$/, '')),
  );
  const first = new Set(words.map((pair) => pair[0]));
  const position = first.size === 1 ? 1 : 0;
  const kinds = new Map<string, number>();
  for (const pair of words) {
    const kind = pair[position] ?? '';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds;
}

/** Timestamped records: how many, their span and kinds, every warning or error, then first and last key lines. */
function reduceLogRecords(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const keys: string[] = [];
  let continuation = 0;
  for (const line of lines) {
    if (TIMESTAMP.test(line)) keys.push(line);
    else if (line.trim() !== '' && keys.length > 0) continuation++;
  }
  const nonEmpty = lines.filter((line) => line.trim() !== '').length;
  if (keys.length < MIN_RECORDS || keys.length < nonEmpty / 2) return undefined;
  const time = (line: string) => (TIMESTAMP.exec(line)?.[0] ?? '').replace(/^\[|\]$/g, '');
  const kinds = [...kindsOf(keys).entries()].sort((a, b) => b[1] - a[1]);
  const shownKinds = kinds.slice(0, 12).map(([kind, count]) => `${kind} ${count.toLocaleString('en-US')}`);
  const out = [
    `${counted(keys.length, 'record', input.partial)} from ${time(keys[0] as string)} to ${time(keys.at(-1) as string)}${continuation > 0 ? ` (${plural(continuation, 'continuation line')} not shown)` : ''}`,
    `by kind: ${shownKinds.join(', ')}${kinds.length > 12 ? `, … ${kinds.length - 12} more` : ''}`,
  ];
  let used = out.join('\n').length;
  const flagged = keys.filter((key) => LEVEL.test(key));
  if (flagged.length > 0) {
    out.push(`${counted(flagged.length, 'record', input.partial)} naming an error, failure or warning:`);
    let shown = 0;
    for (const key of flagged) {
      if (used + key.length > input.budget * 0.6) break;
      out.push(clip(key));
      used += Math.min(key.length, MAX_KEY_CHARS) + 1;
      shown++;
    }
    if (shown < flagged.length)
      out.push(`[… ${plural(flagged.length - shown, 'more flagged record')} not shown]`);
  }
  const room = Math.max(0, input.budget - used);
  const head: string[] = [];
  const tail: string[] = [];
  let spent = 0;
  for (let i = 0, j = keys.length - 1; i <= j; ) {
    const next = head.length <= tail.length ? (keys[i] as string) : (keys[j] as string);
    if (spent + Math.min(next.length, MAX_KEY_CHARS) + 1 > room) break;
    if (head.length <= tail.length) {
      head.push(clip(next));
      i++;
    } else {
      tail.unshift(clip(next));
      j--;
    }
    spent += Math.min(next.length, MAX_KEY_CHARS) + 1;
  }
  const hidden = keys.length - head.length - tail.length;
  out.push(...head, ...(hidden > 0 ? [`[… ${plural(hidden, 'record')} not shown …]`] : []), ...tail);
  return out.join('\n');
}

/** A `Label: value` line (`  File: a.ts`, `Package: zlib1g`, `Name: web-7f9c`). */
const LABELLED = /^\s*([A-Za-z][\w .()/-]{0,40}?):(?:\s|$)/;
const MIN_BLOCKS = 10;
const SQL_DEFINITION = /^(?:CREATE|ALTER)\s+(?:TABLE|VIEW|INDEX|UNIQUE INDEX|SEQUENCE|MATERIALIZED VIEW)\b/;
const SQL_DATA = /^COPY\s.+\sFROM stdin;$|^INSERT INTO\s/;

/** Among the labels most records have, the one whose values differ most between records. */
function distinguishingLabel(blocks: readonly string[][], opening: string): string | undefined {
  const values = new Map<string, Set<string>>();
  const present = new Map<string, number>();
  for (const block of blocks) {
    const seen = new Set<string>();
    for (const line of block.slice(1)) {
      const name = LABELLED.exec(line)?.[1];
      if (name === undefined || name === opening || seen.has(name)) continue;
      seen.add(name);
      present.set(name, (present.get(name) ?? 0) + 1);
      const set = values.get(name) ?? new Set<string>();
      set.add(`${block[0]}\u0000${line.trim()}`);
      values.set(name, set);
    }
  }
  let best: string | undefined;
  for (const [name, count] of present) {
    if (count < blocks.length * 0.8) continue;
    if (best === undefined || (values.get(name)?.size ?? 0) > (values.get(best)?.size ?? 0)) best = name;
  }
  return best;
}

/**
 * Records of several `Label: value` lines each, every one opened by the same label (`stat`'s
 * `File:`, `apt show`'s `Package:`, `pip show`'s `Name:`, `kubectl describe`'s `Name:`): the
 * opening line of every record, then whole records from the start and the end within the budget.
 */
function reduceBlocks(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const content = lines.filter((line) => line.trim() !== '');
  const label = LABELLED.exec(content[0] ?? '')?.[1];
  if (label === undefined) return undefined;
  const starts: number[] = [];
  let labelled = 0;
  for (const [index, line] of lines.entries()) {
    const match = LABELLED.exec(line);
    if (match) labelled++;
    if (match?.[1] === label) starts.push(index);
  }
  if (starts.length < MIN_BLOCKS || labelled < content.length / 2) return undefined;
  // Records of one line each are a table, not blocks.
  if (content.length < starts.length * 2) return undefined;
  const blocks = starts.map((start, index) =>
    lines.slice(start, starts[index + 1]).filter((line) => line.trim() !== ''),
  );
  const preamble = lines.slice(0, starts[0]).filter((line) => line.trim() !== '');
  const heading = `${counted(blocks.length, 'record', input.partial)} of ${plural(Math.round(content.length / blocks.length), 'line')} or so, each opened by its \`${label}:\` line:`;
  const keys = blocks.map((block) => clip((block[0] as string).trim()));
  // The same opening line several times (`apt-cache show` lists each version of a package): the
  // label that tells the records apart best (`Version:`) is added to each.
  if (new Set(keys).size < keys.length) {
    const second = distinguishingLabel(blocks, label);
    if (second !== undefined)
      for (const [index, block] of blocks.entries()) {
        const line = block.find((candidate) => LABELLED.exec(candidate)?.[1] === second);
        if (line !== undefined) keys[index] = clip(`${keys[index]} · ${line.trim()}`);
      }
  }
  // Every key line is kept past the budget, up to twice its worth; the rest are counted.
  const shownKeys = withinBudget(keys, input.budget * 2, '\n');
  const out = [...preamble.slice(0, 5), heading, ...shownKeys];
  if (shownKeys.length < keys.length)
    out.push(`[… ${plural(keys.length - shownKeys.length, 'more record')} not shown]`);
  let used = out.join('\n').length;
  const whole: string[][] = [];
  for (const block of [blocks[0], blocks.at(-1)]) {
    if (block === undefined || whole.includes(block)) continue;
    const size = block.reduce((sum, line) => sum + Math.min(line.length, MAX_KEY_CHARS) + 1, 0);
    if (used + size > input.budget && whole.length > 0) break;
    whole.push(block);
    used += size;
  }
  out.push(`${whole.length === 1 ? 'the first record' : 'the first and the last record'} in full:`);
  for (const block of whole) out.push(...block.map(clip));
  return out.join('\n');
}

/** A line's leading hash (`2bdbd47 HEAD@{…}: commit: …`, `a1b2c3d Fix the parser`). */
const LEADING_HASH = /^([0-9a-f]{7,40})\b/;

/**
 * Lines each opened by a distinct hash (`git reflog`, `git log --oneline` or `--format='%h %s'`,
 * `git cherry -v`): every hash, then whole lines from the start and the end within the budget.
 */
function reduceHashedLines(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const content = lines.filter((line) => line.trim() !== '');
  const hashes = content.map((line) => LEADING_HASH.exec(line)?.[1]).filter((hash) => hash !== undefined);
  if (hashes.length < MIN_RECORDS || hashes.length < content.length * 0.9) return undefined;
  if (!hashes.some((hash) => /[a-f]/.test(hash)) || new Set(hashes).size < hashes.length * 0.95)
    return undefined;
  const rows = content.filter((line) => LEADING_HASH.test(line));
  // The hashes are the records' keys: kept past a small budget, up to most of the default one.
  const keys = withinBudget(hashes, Math.max(input.budget, DEFAULT_REDUCER_BUDGET) * 0.85, ' ');
  const hidden = hashes.length - keys.length;
  const keyed = [
    `${counted(rows.length, 'line', input.partial)}; the hash of each${hidden > 0 ? ` (the first ${keys.length.toLocaleString('en-US')})` : ''}:`,
    `${keys.join(' ')}${hidden > 0 ? ` … and ${hidden.toLocaleString('en-US')} more` : ''}`,
  ];
  const others = content
    .filter((line) => !LEADING_HASH.test(line))
    .slice(0, 10)
    .map(clip);
  const used = [...keyed, ...others].join('\n').length;
  return [
    ...keyed,
    ...wholeRows(rows, Math.max(input.budget - used, 2 * (MAX_KEY_CHARS + 2))),
    ...(others.length > 0 ? ['other lines:', ...others] : []),
  ].join('\n');
}

const TREE_ENTRY = /^[├└]─+ ?(\S.*)$/;
const TREE_DETAIL = /^[│ ]\s+[├└]─+ ?(\S.*)$/;

/**
 * A tree of records one level deep (`license-checker`: `├─ express@4.22.3` with `│  ├─ licenses:
 * MIT`, `│  ├─ path: …` under it): every entry with its first detail, the rest counted.
 */
function reduceTreeRecords(input: RecognizerInput, lines: readonly string[]): string | undefined {
  const content = lines.filter((line) => line.trim() !== '');
  const entries: { name: string; details: string[] }[] = [];
  let inTree = 0;
  for (const line of content) {
    const entry = TREE_ENTRY.exec(line);
    const detail = TREE_DETAIL.exec(line);
    if (entry) entries.push({ name: entry[1] as string, details: [] });
    else if (detail && entries.length > 0) entries.at(-1)?.details.push(detail[1] as string);
    else continue;
    inTree++;
  }
  if (entries.length < MIN_RECORDS || inTree < content.length * 0.8) return undefined;
  const details = entries.reduce((sum, entry) => sum + entry.details.length, 0);
  if (details < entries.length) return undefined;
  const keys = entries.map((entry) =>
    clip(entry.details[0] ? `${entry.name} · ${entry.details[0]}` : entry.name),
  );
  const shown = withinBudget(keys, Math.max(input.budget, DEFAULT_REDUCER_BUDGET) * 2, '\n');
  const others = content.filter((line) => !TREE_ENTRY.test(line) && !TREE_DETAIL.test(line)).slice(0, 5);
  return [
    ...others.map(clip),
    `${counted(entries.length, 'record', input.partial)}, each with the first of its ${plural(details, 'detail')}:`,
    ...shown,
    ...(shown.length < keys.length
      ? [`[… ${plural(keys.length - shown.length, 'more record')} not shown]`]
      : []),
  ].join('\n');
}

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
    if (counts.size < 2 || counts.size > MAX_CATEGORIES) continue;
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
function reduceTable(input: RecognizerInput, lines: readonly string[]): string | undefined {
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

/** Whole rows (clipped) from the start and the end of a table, within `room` characters. */
function wholeRows(rows: readonly string[], room: number): string[] {
  const head: string[] = [];
  const tail: string[] = [];
  let spent = 0;
  for (let i = 0, j = rows.length - 1; i <= j; ) {
    const fromHead = head.length <= tail.length * 3;
    const next = clip((fromHead ? rows[i] : rows[j]) as string);
    if (spent + next.length + 1 > room) break;
    if (fromHead) {
      head.push(next);
      i++;
    } else {
      tail.unshift(next);
      j--;
    }
    spent += next.length + 1;
  }
  if (head.length + tail.length < 2) return [];
  const hidden = rows.length - head.length - tail.length;
  if (hidden === 0) return ['rows in full:', ...head, ...tail];
  return [
    `rows in full (the first ${head.length} and the last ${tail.length}):`,
    ...head,
    `[… ${hidden.toLocaleString('en-US')} more, by key above …]`,
    ...tail,
  ];
}

export const reduceRecordOutput: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= GENERIC_THRESHOLD_BYTES) return undefined;
  const lines = contentLines(input);
  // A SQL dump's data rows sit between the statements that define them: the generic reducer keeps
  // those statements from the middle it cuts, where a table summary would keep only the rows.
  if (lines.some((line) => SQL_DEFINITION.test(line)) && lines.some((line) => SQL_DATA.test(line)))
    return undefined;
  return (
    reduceSections(input, lines) ??
    reduceBlocks(input, lines) ??
    reduceHashedLines(input, lines) ??
    reduceTreeRecords(input, lines) ??
    reduceLogRecords(input, lines) ??
    reduceTable(input, lines)
  );
};
