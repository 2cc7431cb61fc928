import { counted, type Recognizer, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

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
  /**
   * A word diff (`--word-diff`, `--color-words` once colour is removed): its changes are marked
   * inside lines (`[-old-]{+new+}`), so it has no +/− lines; this counts the lines holding a mark.
   */
  wordChanged?: number;
  hunks: string[][];
  /** How a hunk listing names the file: `diff --git path`, or the `diff -u …` / `+++ path` line. */
  label: string;
  /** Lines between patches that are not part of one (`Only in dir: name`, `Binary files … differ`). */
  notes: string[];
}

/** Where a non-git file patch starts: `--- old`, then `+++ new`, then a hunk header. */
function isPlainPatchStart(lines: readonly string[], index: number): boolean {
  return (
    (lines[index] as string).startsWith('--- ') &&
    (lines[index + 1] ?? '').startsWith('+++ ') &&
    /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(lines[index + 2] ?? '')
  );
}

/** A `---`/`+++` line's path, without the timestamp `diff -u` puts after a tab. */
function plainPath(line: string): string {
  return line.slice(4).split('\t')[0]?.trim() ?? '';
}

function pathsOf(diffLine: string): { before: string; after: string } {
  const match = /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/.exec(diffLine);
  return match ? { before: match[1] as string, after: match[2] as string } : { before: '', after: '' };
}

/** A word diff's mark of a removed or added run: `[-old-]` or `{+new+}`. */
const WORD_MARK = /\[-.*?-\]|\{\+.*?\+\}/;

/**
 * Whether a file's patch is a word diff: a marked line starts with something a unified diff's
 * hunk line cannot (`{+…`, `[-…`, text), or no line of its hunks is a +/− line without a mark.
 */
function isWordDiff(lines: readonly string[]): boolean {
  const hunkStart = lines.findIndex((line) => line.startsWith('@@'));
  if (hunkStart < 0) return false;
  const body = lines.slice(hunkStart).filter((line) => !line.startsWith('@@'));
  const marked = body.filter((line) => WORD_MARK.test(line));
  if (marked.length === 0) return false;
  if (marked.some((line) => line !== '' && !/^[ +\-\\]/.test(line))) return true;
  return !body.some((line) => /^[+-]/.test(line) && !WORD_MARK.test(line));
}

function parseFile(lines: readonly string[]): FilePatch {
  const git = (lines[0] as string).startsWith('diff --git ');
  const wordDiff = isWordDiff(lines);
  let { before, after } = pathsOf(lines[0] as string);
  if (!git) {
    const minus = lines.findIndex((line) => line.startsWith('--- '));
    before = plainPath(lines[minus] ?? '');
    after = plainPath(lines[minus + 1] ?? '');
  }
  const file: FilePatch = {
    path: after,
    partial: false,
    status: 'M',
    binary: false,
    added: 0,
    removed: 0,
    hunks: [],
    label: git
      ? `diff --git ${after}`
      : (lines[0] as string).startsWith('--- ')
        ? `+++ ${after}`
        : (lines[0] as string),
    notes: [],
    ...(wordDiff ? { wordChanged: 0 } : {}),
  };
  if (!git && before === '/dev/null') file.status = 'A';
  else if (!git && after === '/dev/null') {
    file.status = 'D';
    file.path = before;
  }
  let renamedFrom = before;
  let hunk: string[] | undefined;
  let headerDone = false;
  for (const line of lines.slice(1)) {
    if (WINDOW_CUT_LINE.test(line)) {
      file.partial = true;
      hunk = undefined;
      continue;
    }
    // Inside a hunk every line is context, an addition, a removal or `\ No newline…`; anything
    // else (`Only in dir: name` from `diff -r`) ends it.
    // A word diff's lines are printed without a +/−/space prefix: every one belongs to the hunk.
    if (hunk && !wordDiff && line !== '' && !/^[ +\-\\]/.test(line) && !line.startsWith('@@'))
      hunk = undefined;
    if (hunk) {
      if (line.startsWith('@@')) {
        hunk = [line];
        file.hunks.push(hunk);
        continue;
      }
      if (file.wordChanged !== undefined) {
        // Only the marked lines: a word diff's context is whole unchanged lines.
        if (WORD_MARK.test(line)) {
          file.wordChanged++;
          hunk.push(line);
        }
        continue;
      }
      if (line.startsWith('+')) file.added++;
      else if (line.startsWith('-')) file.removed++;
      hunk.push(line);
      continue;
    }
    if (!git && headerDone && line.trim() !== '' && !line.startsWith('@@')) {
      file.notes.push(line);
      continue;
    }
    if (line.startsWith('@@')) {
      headerDone = true;
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
  else if (git && file.status === 'D') file.path = before;
  return file;
}

export function summaryLine(file: FilePatch): string {
  const counts = file.binary
    ? 'binary'
    : file.wordChanged !== undefined
      ? `${file.wordChanged} line${file.wordChanged === 1 ? '' : 's'} with word changes`
      : [file.added > 0 ? `+${file.added}` : '', file.removed > 0 ? `−${file.removed}` : '']
          .filter(Boolean)
          .join(' ') || 'no line changes';
  return `${file.status} ${file.path} (${counts}${file.partial ? ' in the part read' : ''})`;
}

/**
 * Where each file's patch starts: its `diff --git` line; in a patch not made by git (`diff -ru`,
 * `svn diff`, a `.patch` file), its `--- old` line, or the `diff …`/`Index:` line just before it.
 */
function patchStarts(lines: readonly string[]): number[] {
  const starts: number[] = [];
  const git = lines.some((line) => line.startsWith('diff --git '));
  for (const [index, line] of lines.entries()) {
    if (git) {
      if (line.startsWith('diff --git ')) starts.push(index);
    } else if (isPlainPatchStart(lines, index)) {
      const above = lines[index - 1] ?? '';
      const header = /^(?:diff |Index: )/.test(above) || /^={20,}$/.test(above);
      starts.push(header && !/^={20,}$/.test(above) ? index - 1 : index);
    }
  }
  return starts;
}

/** The files of a patch, each from its first line to the next file's. */
export function patchFiles(lines: readonly string[]): FilePatch[] {
  const starts = patchStarts(lines);
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
  const words = files.reduce((sum, file) => sum + (file.wordChanged ?? 0), 0);
  const wordDiff = files.some((file) => file.wordChanged !== undefined);
  // A word diff has no +/− lines: its totals are lines with word changes, not `+0 −0`.
  const totals = wordDiff
    ? `${counted(files.length, 'file', partial)} changed, ${words} line${words === 1 ? '' : 's'} with word changes`
    : `${counted(files.length, 'file', partial)} changed, +${added} −${removed}`;
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
  // Which hunks fit, in the patch's order. In a word diff (hunks of changed lines only, small) each
  // file's first hunk comes before any file's second, so a file late in it still shows one.
  const chosen = files.map(() => new Set<number>());
  let used = 0;
  const inOrder = files.flatMap((file, fileIndex) => file.hunks.map((_, hunk) => [fileIndex, hunk] as const));
  const order = files.some((file) => file.wordChanged !== undefined)
    ? [...inOrder.filter(([, hunk]) => hunk === 0), ...inOrder.filter(([, hunk]) => hunk > 0)]
    : inOrder;
  for (const [fileIndex, hunkIndex] of order) {
    const file = files[fileIndex] as FilePatch;
    const hunk = file.hunks[hunkIndex];
    if (hunk === undefined) continue;
    const picked = chosen[fileIndex] as Set<number>;
    const size = hunk.reduce(
      (sum, line) => sum + clip(line).length + 1,
      picked.size === 0 ? file.label.length + 1 : 0,
    );
    if (used + size > budget) continue;
    picked.add(hunkIndex);
    used += size;
  }
  const lines: string[] = [];
  let hidden = 0;
  for (const [fileIndex, file] of files.entries()) {
    const picked = chosen[fileIndex] as Set<number>;
    if (picked.size > 0) lines.push(file.label);
    for (const [hunkIndex, hunk] of file.hunks.entries())
      if (picked.has(hunkIndex)) lines.push(...hunk.map(clip));
    if (picked.size < file.hunks.length) hidden++;
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
  const files = patchFiles(lines);
  if (files.length === 0) return undefined;
  const git = files[0]?.label.startsWith('diff --git ') === true;
  const first = patchStarts(lines)[0] as number;
  const preamble = lines
    .slice(0, first)
    .filter((line) => line.trim().length > 0 && !WINDOW_CUT_LINE.test(line))
    .slice(0, MAX_PREAMBLE_LINES);
  const totals = git
    ? patchTotals(files, partial)
    : patchTotals(files, partial, 'the files cut are not counted');
  // `diff -r`'s `Only in dir: name` and `Files … differ` lines name files too: each kept as printed.
  const summary = [...preamble, `${totals}:`, ...files.flatMap((file) => [summaryLine(file), ...file.notes])];
  const used = summary.reduce((sum, line) => sum + line.length + 1, 0);
  const { lines: hunks, hidden } = hunksWithin(files, budget - used);
  const how = git ? '; git diff -- <path> shows one' : '';
  const note =
    hidden > 0
      ? [`[hunks of ${hidden} file${hidden === 1 ? '' : 's'} not shown, in part or whole${how}]`]
      : [];
  return [...summary, '', ...hunks, ...note].join('\n');
}

/** Share of an output's non-empty lines a patch must make up to be read as one, whatever the command. */
const MIN_PATCH_SHARE = 0.6;

/**
 * A unified diff printed by any command (`diff -ru`, `svn diff`, `cat fix.patch`, `gh pr diff`):
 * read as `git diff` is, when most of the output is the patch.
 */
export const reducePatchOutput: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const starts = patchStarts(input.lines);
  if (starts.length === 0) return undefined;
  const nonEmpty = input.lines.filter((line) => line.trim() !== '').length;
  const inPatch = input.lines.slice(starts[0]).filter((line) => line.trim() !== '').length;
  if (inPatch < nonEmpty * MIN_PATCH_SHARE) return undefined;
  return reduceGitPatch(input.lines, input.budget, input.partial);
};
