import { counted, WINDOW_CUT_LINE } from './reducer-input.js';

const MAX_HUNK_LINE_CHARS = 300;
const MAX_PREAMBLE_LINES = 12;

export interface FilePatch {
  path: string;
  /** The output was cut inside this file's patch: its counts are of what was seen. */
  partial: boolean;
  status: 'M' | 'A' | 'D' | 'R' | 'C';
  binary: boolean;
  added: number;
  removed: number;
  hunks: string[][];
}

function pathsOf(diffLine: string): { before: string; after: string } {
  const match = /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/.exec(diffLine);
  return match ? { before: match[1] as string, after: match[2] as string } : { before: '', after: '' };
}

function parseFile(lines: readonly string[]): FilePatch {
  const { before, after } = pathsOf(lines[0] as string);
  const file: FilePatch = {
    path: after,
    partial: false,
    status: 'M',
    binary: false,
    added: 0,
    removed: 0,
    hunks: [],
  };
  let renamedFrom = before;
  let hunk: string[] | undefined;
  for (const line of lines.slice(1)) {
    if (WINDOW_CUT_LINE.test(line)) {
      file.partial = true;
      hunk = undefined;
      continue;
    }
    if (hunk) {
      if (line.startsWith('@@')) {
        hunk = [line];
        file.hunks.push(hunk);
        continue;
      }
      if (line.startsWith('+')) file.added++;
      else if (line.startsWith('-')) file.removed++;
      hunk.push(line);
      continue;
    }
    if (line.startsWith('@@')) {
      hunk = [line];
      file.hunks.push(hunk);
    } else if (line.startsWith('new file mode')) file.status = 'A';
    else if (line.startsWith('deleted file mode')) file.status = 'D';
    else if (line.startsWith('rename from ')) {
      file.status = 'R';
      renamedFrom = line.slice('rename from '.length);
    } else if (line.startsWith('copy from ')) {
      file.status = 'C';
      renamedFrom = line.slice('copy from '.length);
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  }
  if (file.status === 'R' || file.status === 'C') file.path = `${renamedFrom} → ${after}`;
  else if (file.status === 'D') file.path = before;
  return file;
}

export function summaryLine(file: FilePatch): string {
  const counts = file.binary
    ? 'binary'
    : [file.added > 0 ? `+${file.added}` : '', file.removed > 0 ? `−${file.removed}` : '']
        .filter(Boolean)
        .join(' ') || 'no line changes';
  return `${file.status} ${file.path} (${counts}${file.partial ? ' in the part read' : ''})`;
}

/** The files of a patch, each from its `diff --git` line to the next. */
export function patchFiles(lines: readonly string[]): FilePatch[] {
  const starts = lines.flatMap((line, index) => (line.startsWith('diff --git ') ? [index] : []));
  return starts.map((start, index) => parseFile(lines.slice(start, starts[index + 1])));
}

/** `3 files changed, +12 −4`, or with `seen` and a note when part of the output was not read. */
export function patchTotals(
  files: readonly FilePatch[],
  partial: string | undefined,
  complete = 'git diff --stat counts every file',
): string {
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  const totals = `${counted(files.length, 'file', partial)} changed, +${added} −${removed}`;
  return partial === undefined ? totals : `${totals} in the part read (${complete})`;
}

function clip(line: string): string {
  return line.length <= MAX_HUNK_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_HUNK_LINE_CHARS)}… [${line.length - MAX_HUNK_LINE_CHARS} more chars]`;
}

/**
 * Hunks in file order while they fit in `budget` characters; a hunk that does not fit is skipped,
 * so a smaller one further on still shows.
 */
function hunksWithin(files: readonly FilePatch[], budget: number): { lines: string[]; hidden: number } {
  const lines: string[] = [];
  let used = 0;
  let hidden = 0;
  for (const file of files) {
    const header = `diff --git ${file.path}`;
    let shownHere = 0;
    for (const hunk of file.hunks) {
      const text = hunk.map(clip);
      const size = text.reduce((sum, line) => sum + line.length + 1, shownHere === 0 ? header.length + 1 : 0);
      if (used + size > budget) continue;
      if (shownHere === 0) lines.push(header);
      lines.push(...text);
      used += size;
      shownHere++;
    }
    if (shownHere < file.hunks.length) hidden++;
  }
  return { lines, hidden };
}

/**
 * A patch (`git diff`, `git show`): every changed file first, with its status and +/− counts,
 * then as many hunks as fit in the budget. Returns undefined when the output holds no patch.
 */
export function reduceGitPatch(
  lines: readonly string[],
  budget: number,
  partial?: string,
): string | undefined {
  const first = lines.findIndex((line) => line.startsWith('diff --git '));
  if (first < 0) return undefined;
  const preamble = lines
    .slice(0, first)
    .filter((line) => line.trim().length > 0 && !WINDOW_CUT_LINE.test(line))
    .slice(0, MAX_PREAMBLE_LINES);
  const files = patchFiles(lines);
  const summary = [...preamble, `${patchTotals(files, partial)}:`, ...files.map(summaryLine)];
  const used = summary.reduce((sum, line) => sum + line.length + 1, 0);
  const { lines: hunks, hidden } = hunksWithin(files, budget - used);
  const note =
    hidden > 0
      ? [
          `[hunks of ${hidden} file${hidden === 1 ? '' : 's'} not shown, in part or whole; git diff -- <path> shows one]`,
        ]
      : [];
  return [...summary, '', ...hunks, ...note].join('\n');
}
