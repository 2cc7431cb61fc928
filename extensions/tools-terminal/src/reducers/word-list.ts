import { counted, type Recognizer, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

/** A list entry: one name a line, maybe indented (`apt-cache rdepends`, `ls -1`, `pip list --format=freeze | cut`). */
const ENTRY = /^\s*([^\s]+)\s*$/;
const MIN_ENTRIES = 50;

/**
 * One name a line: every entry is a record's key, so the names are given together, each once in
 * the order printed (with how many times a repeated one appears), while twice the budget lasts;
 * the lines that are not names (a heading such as `Reverse Depends:`) are kept as printed.
 * Numbers one a line (`seq`) are left to other readers.
 */
export const reduceWordList: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const content = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const entries = content.filter(
    (line) => ENTRY.test(line) && !line.includes('/') && !/^\s*[\d.,:-]+\s*$/.test(line),
  );
  if (entries.length < MIN_ENTRIES || entries.length < content.length * 0.9) return undefined;
  const counts = new Map<string, number>();
  for (const line of entries) {
    const name = (ENTRY.exec(line) as RegExpExecArray)[1] as string;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const others = content.filter((line) => !entries.includes(line));
  const heading = `${counted(entries.length, 'entry', input.partial).replace(/entrys\b/, 'entries')}, ${counts.size.toLocaleString('en-US')} distinct:`;
  const names: string[] = [];
  let used = heading.length + others.reduce((sum, line) => sum + line.length + 1, 0);
  for (const [name, count] of counts) {
    const item = count > 1 ? `${name} (${count}×)` : name;
    if (names.length > 0 && used + item.length + 2 > input.budget * 2) break;
    names.push(item);
    used += item.length + 2;
  }
  const more = counts.size - names.length;
  return [
    ...others.slice(0, 10),
    heading,
    names.join(', ') + (more > 0 ? `, … and ${more} more (last: ${[...counts.keys()].at(-1)})` : ''),
  ].join('\n');
};
