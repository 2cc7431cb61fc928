import {
  counted,
  endsThatFit,
  type Recognizer,
  type RecognizerInput,
  WINDOW_CUT_LINE,
} from './reducer-input.js';

/** A list entry: one name a line, maybe indented (`apt-cache rdepends`, `ls -1`, `pip list --format=freeze | cut`). */
const ENTRY = /^\s*([^\s]+)\s*$/;
const MIN_ENTRIES = 50;

interface ListRecord {
  /** The record's own lines at the left margin (`libc6`, `Reverse Depends:`). */
  heading: string[];
  /** Each name under it, once, with how many times it was printed. */
  names: Map<string, number>;
  entries: number;
}

/**
 * The names of one record within `room`: the first and the last, with how many lie between, so
 * the list's end is seen as well as its start.
 */
function namesWithin(record: ListRecord, room: number, partial: string | undefined): string {
  const items = [...record.names].map(([name, count]) => (count > 1 ? `${name} (${count}×)` : name));
  const heading = `${counted(record.entries, 'entry', partial).replace(/entrys\b/, 'entries')}, ${record.names.size.toLocaleString('en-US')} distinct:`;
  // Each item is measured with its separator (endsThatFit counts one character a line).
  const { head, tail, hidden } = endsThatFit(
    items.map((item) => `${item},`),
    room - heading.length - 20,
    { headPerTail: 2, atLeastTwo: true },
  );
  const between = hidden > 0 ? [`… ${hidden.toLocaleString('en-US')} more …,`] : [];
  return `${heading} ${[...head, ...between, ...tail].join(' ').slice(0, -1)}`;
}

/**
 * One name a line: every entry is a record's key, so the names are given together, each once in
 * the order printed (with how many times a repeated one appears), the first and the last within the
 * budget. An indented list under names at the left margin (`apt-cache rdepends a b`) is a list
 * per top-level record: each record's lines are kept, with its own count and names. Numbers one a
 * line (`seq`) are left to other readers.
 */
export const reduceWordList: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const content = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const isEntry = (line: string) =>
    ENTRY.test(line) && !line.includes('/') && !/^\s*[\d.,:-]+\s*$/.test(line);
  const entries = content.filter(isEntry);
  if (entries.length < MIN_ENTRIES || entries.length < content.length * 0.9) return undefined;
  const nested = content.some((line) => /^\s/.test(line) && isEntry(line));
  const records: ListRecord[] = [];
  const others: string[] = [];
  let current: ListRecord | undefined;
  for (const line of content) {
    const atMargin = !/^\s/.test(line);
    if (nested && atMargin) {
      // A name at the margin opens a record; a heading right under it (`Reverse Depends:`) joins it.
      if (current === undefined || current.entries > 0) {
        current = { heading: [], names: new Map(), entries: 0 };
        records.push(current);
      }
      current.heading.push(line.trim());
      continue;
    }
    if (!isEntry(line)) {
      others.push(line);
      continue;
    }
    if (current === undefined) {
      current = { heading: [], names: new Map(), entries: 0 };
      records.push(current);
    }
    const name = (ENTRY.exec(line) as RegExpExecArray)[1] as string;
    current.names.set(name, (current.names.get(name) ?? 0) + 1);
    current.entries++;
  }
  const kept = others.slice(0, 10);
  const headings = records.reduce((sum, record) => sum + record.heading.join(' · ').length + 1, 0);
  const left = input.budget - headings - kept.reduce((sum, line) => sum + line.length + 1, 0);
  const withNames = records.filter((record) => record.entries > 0);
  // Each record's names get an equal share of what the headings leave.
  const share = Math.max(200, Math.floor(left / Math.max(1, withNames.length)));
  const lines = records.map((record) => {
    if (record.entries === 0) return record.heading.join(' · ');
    const names = namesWithin(record, share, input.partial);
    return record.heading.length === 0 ? names : `${record.heading.join(' · ')} · ${names}`;
  });
  return [...kept, ...lines].join('\n');
};
