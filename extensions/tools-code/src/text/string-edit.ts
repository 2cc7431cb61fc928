import { dominantLineEnding, type LineEnding, type SplitText } from './line-endings.js';

export interface StringEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface LineCounts {
  linesAdded: number;
  linesRemoved: number;
}

export type StringEditOutcome =
  | { ok: true; split: SplitText; counts: LineCounts; replacements: number }
  | {
      ok: false;
      reason: 'empty' | 'unchanged' | 'not_found' | 'ambiguous';
      message: string;
      lines: number[];
    };

function normalizeBreaks(text: string): string {
  return text.replace(/\r\n|\r/g, '\n');
}

/** Lines changed, ignoring lines that stay equal at the start and end of a replaced region. */
export function countChangedLines(before: readonly string[], after: readonly string[]): LineCounts {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail += 1;
  }
  return { linesRemoved: before.length - head - tail, linesAdded: after.length - head - tail };
}

/**
 * Replaces `old_string` in a text held as lines with their own endings. Matching ignores the
 * kind of line break; replaced text takes the file's dominant break, and the last replaced line
 * keeps the break it had, so untouched lines (and a missing final newline) stay as they were.
 */
export function applyStringEdit(split: SplitText, edit: StringEdit): StringEditOutcome {
  const oldText = normalizeBreaks(edit.old_string);
  const newText = normalizeBreaks(edit.new_string);
  const view = split.lines.join('\n');
  if (oldText === '' && view !== '') {
    return {
      ok: false,
      reason: 'empty',
      message: 'old_string is empty; give the exact text to replace.',
      lines: [],
    };
  }
  if (oldText === newText) {
    return {
      ok: false,
      reason: 'unchanged',
      message: 'old_string and new_string are identical; nothing would change.',
      lines: [],
    };
  }
  const lineStarts: number[] = [0];
  for (let index = 0; index < view.length; index += 1)
    if (view.charCodeAt(index) === 10) lineStarts.push(index + 1);
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const offsets: number[] = [];
  if (oldText === '') offsets.push(0);
  else
    for (let at = view.indexOf(oldText); at !== -1; at = view.indexOf(oldText, at + oldText.length))
      offsets.push(at);
  if (offsets.length === 0) {
    return { ok: false, reason: 'not_found', message: 'old_string was not found in the file.', lines: [] };
  }
  const lineNumbers = offsets.map((offset) => lineAt(offset) + 1);
  if (offsets.length > 1 && edit.replace_all !== true) {
    return {
      ok: false,
      reason: 'ambiguous',
      message: `old_string occurs ${offsets.length} times (lines ${lineNumbers.join(', ')}); add surrounding context to make it unique, or set replace_all.`,
      lines: lineNumbers,
    };
  }
  const dominant = dominantLineEnding(split.endings);
  const lines = [...split.lines];
  const endings = [...split.endings];
  const counts: LineCounts = { linesAdded: 0, linesRemoved: 0 };
  for (let index = offsets.length - 1; index >= 0; index -= 1) {
    const start = offsets[index] ?? 0;
    const firstLine = lineAt(start);
    const lastLine = lineAt(start + oldText.length);
    const column = start - (lineStarts[firstLine] ?? 0);
    const endColumn = start + oldText.length - (lineStarts[lastLine] ?? 0);
    const before = lines.slice(firstLine, lastLine + 1);
    const first = before[0] ?? '';
    const last = before[before.length - 1] ?? '';
    const after = (first.slice(0, column) + newText + last.slice(endColumn)).split('\n');
    const keptEnding = endings[lastLine] ?? '';
    const afterEndings: LineEnding[] = after.map((_, position) =>
      position === after.length - 1 ? keptEnding : dominant,
    );
    lines.splice(firstLine, before.length, ...after);
    endings.splice(firstLine, before.length, ...afterEndings);
    const changed = countChangedLines(before, after);
    counts.linesAdded += changed.linesAdded;
    counts.linesRemoved += changed.linesRemoved;
  }
  return { ok: true, split: { lines, endings }, counts, replacements: offsets.length };
}
