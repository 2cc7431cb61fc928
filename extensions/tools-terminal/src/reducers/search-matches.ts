import { counted, type Recognizer, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

/**
 * A match of `grep -n`, `git grep -n`, `rg -n --no-heading`: `path:line:text`, the path without
 * spaces and with a `/` or `.` (not a time's `10:00:00`), not a linter's `path:line:column - …`.
 */
const MATCH = /^([\w.@+/-]*[/.][\w.@+/-]*):(\d+):(?!\d+[: ])(.*)$/;
const MIN_MATCHES = 20;
const MAX_LINE_CHARS = 240;

/**
 * Matches of a search, one a line with its path and line number: how many in how many files, every
 * file with its match count (a file is a record's key: named while twice the budget lasts), then
 * the matches in printed order while the budget lasts, each file's first match before any second.
 */
export const reduceSearchMatches: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const content = input.lines.filter((line) => line.trim() !== '' && !WINDOW_CUT_LINE.test(line));
  const matches = content
    .map((line, index) => ({ line, index, match: MATCH.exec(line) }))
    .filter((each) => each.match !== null);
  if (matches.length < MIN_MATCHES || matches.length < content.length * 0.9) return undefined;
  const files = new Map<string, number>();
  for (const { match } of matches) {
    const path = (match as RegExpExecArray)[1] as string;
    files.set(path, (files.get(path) ?? 0) + 1);
  }
  // Lines such as `src/a.ts:12:` in a log are not a search: a search has few files for its matches
  // or many matches a file; one path a line with no repeats is left to other readers.
  if (files.size === matches.length && files.size > MIN_MATCHES) return undefined;
  const heading = `${counted(matches.length, 'match', input.partial).replace(/matchs\b/, 'matches')} in ${counted(files.size, 'file', input.partial)}:`;
  const fileLines: string[] = [];
  let used = heading.length + 1;
  for (const [path, count] of files) {
    const line = `${path} (${count.toLocaleString('en-US')})`;
    if (fileLines.length > 0 && used + line.length + 1 > input.budget * 2) break;
    fileLines.push(line);
    used += line.length + 1;
  }
  if (fileLines.length < files.size)
    fileLines.push(`[… ${files.size - fileLines.length} more files not shown]`);
  const clip = (line: string) =>
    line.length <= MAX_LINE_CHARS
      ? line
      : `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more chars]`;
  const others = content.filter((line) => !MATCH.test(line));
  const picked = new Set<number>();
  const seenFiles = new Set<string>();
  const firsts = matches.filter(({ match }) => {
    const path = (match as RegExpExecArray)[1] as string;
    if (seenFiles.has(path)) return false;
    seenFiles.add(path);
    return true;
  });
  for (const each of [...firsts, ...matches]) {
    if (picked.has(each.index)) continue;
    const size = clip(each.line).length + 1;
    if (used + size > input.budget) continue;
    picked.add(each.index);
    used += size;
  }
  const shown = matches.filter((each) => picked.has(each.index)).map((each) => clip(each.line));
  return [
    heading,
    ...fileLines,
    ...(others.length > 0 ? [`other lines (${others.length}):`, ...others.slice(0, 10).map(clip)] : []),
    '',
    `${shown.length} of ${matches.length} matches shown:`,
    ...shown,
  ].join('\n');
};
