import { GENERIC_THRESHOLD_BYTES } from './generic.js';
import { clip, contentLines, MAX_KEY_CHARS, MIN_RECORDS, wholeRows, withinBudget } from './record-lines.js';
import {
  counted,
  DEFAULT_REDUCER_BUDGET,
  plural,
  type Recognizer,
  type RecognizerInput,
} from './reducer-input.js';
import { reduceTable } from './table-records.js';

/**
 * Outputs no specific reducer knows, made of repeated records: every record's key line is kept
 * before any detail is dropped. Five shapes: sections (`ls -laR`: a `dir:` line, then its
 * entries), timestamped log records (a line starting with a time, continuation lines after it),
 * blocks of `Label: value` lines (`stat`, `apt show`), lines opened by a hash (`git reflog`), and tables (a header, then one row a record:
 * `dpkg -l`, `pip list`, `ps`; in table-records.ts).
 */

const TIMESTAMP =
  /^\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?/;
const SECTION_HEADER = /^\S.*:$/;
const LEVEL = /\b(FATAL|CRITICAL|ERROR|ERR|WARN(?:ING)?|FAIL(?:ED|URE)?)\b/i;
const ERROR_LEVEL = /\b(?:FATAL|CRITICAL|ERROR|ERR|FAIL(?:ED|URE)?)\b/i;
const MAX_TRACE_LINES = 20;

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
  // The lines under each record (a traceback under an error), by the record's index.
  const under = new Map<number, string[]>();
  let continuation = 0;
  for (const line of lines) {
    if (TIMESTAMP.test(line)) keys.push(line);
    else if (line.trim() !== '' && keys.length > 0) {
      continuation++;
      const lines = under.get(keys.length - 1) ?? [];
      if (lines.length < MAX_TRACE_LINES) lines.push(line);
      under.set(keys.length - 1, lines);
    }
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
    let traced = 0;
    for (const [index, key] of keys.entries()) {
      if (!LEVEL.test(key)) continue;
      if (used + key.length > input.budget * 0.6) break;
      out.push(clip(key));
      used += Math.min(key.length, MAX_KEY_CHARS) + 1;
      shown++;
      // An error's traceback goes with it (not a warning's detail).
      const trace = ERROR_LEVEL.test(key) ? (under.get(index) ?? []) : [];
      const size = trace.reduce((sum, line) => sum + Math.min(line.length, MAX_KEY_CHARS) + 1, 0);
      if (trace.length > 0 && used + size <= input.budget * 0.6) {
        out.push(...trace.map(clip));
        used += size;
        traced += trace.length;
      }
    }
    if (shown < flagged.length)
      out.push(`[… ${plural(flagged.length - shown, 'more flagged record')} not shown]`);
    if (traced > 0)
      out[0] = (out[0] as string).replace(
        / \(([\d,]+) continuation lines? not shown\)$/,
        (_, count: string) =>
          ` (${plural(Number(count.replace(/,/g, '')), 'continuation line')}, ${traced.toLocaleString('en-US')} of them under errors below)`,
      );
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
