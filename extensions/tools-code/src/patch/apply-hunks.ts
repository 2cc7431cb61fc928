import { dominantLineEnding, type LineEnding, type SplitText } from '../text/line-endings.js';
import type { PatchHunk } from './patch-model.js';

const COMPARATORS: ReadonlyArray<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

/**
 * Finds `pattern` in `lines` at or after `from`: exactly first, then ignoring trailing
 * whitespace, then ignoring surrounding whitespace. `atEnd` anchors it to the end of the file.
 */
export function seekLines(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  atEnd: boolean,
): number | undefined {
  if (pattern.length === 0) return atEnd ? lines.length : from;
  if (pattern.length > lines.length) return undefined;
  const last = lines.length - pattern.length;
  for (const equal of COMPARATORS) {
    const starts = atEnd ? [last] : range(Math.max(0, from), last);
    for (const start of starts) {
      let matches = true;
      for (let offset = 0; offset < pattern.length; offset += 1) {
        if (!equal(lines[start + offset] ?? '', pattern[offset] ?? '')) {
          matches = false;
          break;
        }
      }
      if (matches) return start;
    }
  }
  return undefined;
}

function* range(from: number, to: number): Generator<number> {
  for (let value = from; value <= to; value += 1) yield value;
}

export type HunkApplication =
  | { ok: true; split: SplitText; linesAdded: number; linesRemoved: number }
  | { ok: false; error: string };

interface Placement {
  start: number;
  hunk: PatchHunk;
  /** Old-side lines actually used (a trailing blank context line may be dropped). */
  oldCount: number;
}

/**
 * Applies hunks in order, each searched forward from where the previous one ended. Context
 * lines keep the file's own text and line ending; added lines take the dominant line ending.
 */
export function applyHunks(
  original: SplitText,
  hunks: readonly PatchHunk[],
  displayPath: string,
): HunkApplication {
  const hasFinalBreak = original.lines[original.lines.length - 1] === '';
  const lines = hasFinalBreak ? original.lines.slice(0, -1) : [...original.lines];
  const endings = hasFinalBreak ? original.endings.slice(0, -1) : [...original.endings];
  const dominant = dominantLineEnding(original.endings);
  const placements: Placement[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    if (hunk.anchor !== undefined) {
      const found = seekLines(lines, [hunk.anchor], cursor, false);
      if (found === undefined) {
        return {
          ok: false,
          error: `${displayPath}, hunk ${hunk.number}: the context line "${hunk.anchor}" after "@@" was not found.`,
        };
      }
      cursor = found + 1;
    }
    let oldLines = hunk.lines.filter((line) => line.kind !== '+').map((line) => line.text);
    if (oldLines.length === 0) {
      const insertAt =
        hunk.anchor !== undefined
          ? cursor
          : hunk.oldStart !== undefined
            ? Math.min(hunk.oldStart, lines.length)
            : lines.length;
      placements.push({ start: insertAt, hunk, oldCount: 0 });
      cursor = insertAt;
      continue;
    }
    let start: number | undefined;
    if (hunk.oldStart !== undefined)
      start = seekLines(lines, oldLines, Math.max(cursor, hunk.oldStart - 1), hunk.endOfFile);
    start ??= seekLines(lines, oldLines, cursor, hunk.endOfFile);
    if (start === undefined && oldLines[oldLines.length - 1] === '') {
      oldLines = oldLines.slice(0, -1);
      start = seekLines(lines, oldLines, cursor, hunk.endOfFile);
    }
    if (start === undefined) {
      return {
        ok: false,
        error: `${displayPath}, hunk ${hunk.number}: ${describeMismatch(lines, oldLines, cursor)}`,
      };
    }
    placements.push({ start, hunk, oldCount: oldLines.length });
    cursor = start + oldLines.length;
  }
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const placement of [...placements].reverse()) {
    const newLines: string[] = [];
    const newEndings: LineEnding[] = [];
    let position = placement.start;
    let oldSeen = 0;
    for (const line of placement.hunk.lines) {
      if (line.kind === '+') {
        newLines.push(line.text);
        newEndings.push(line.noNewline ? '' : dominant);
        linesAdded += 1;
        continue;
      }
      if (oldSeen >= placement.oldCount) continue;
      oldSeen += 1;
      if (line.kind === ' ') {
        newLines.push(lines[position] ?? line.text);
        newEndings.push(endings[position] ?? dominant);
      } else {
        linesRemoved += 1;
      }
      position += 1;
    }
    lines.splice(placement.start, placement.oldCount, ...newLines);
    endings.splice(placement.start, placement.oldCount, ...newEndings);
  }
  // A line that gained a successor needs a break, even if it was the unterminated last line.
  for (let index = 0; index < lines.length - 1; index += 1)
    if (endings[index] === '') endings[index] = dominant;
  lines.push('');
  endings.push('');
  return { ok: true, split: { lines, endings }, linesAdded, linesRemoved };
}

function describeMismatch(lines: readonly string[], pattern: readonly string[], cursor: number): string {
  let matched = 0;
  for (let length = pattern.length - 1; length >= 1; length -= 1) {
    if (seekLines(lines, pattern.slice(0, length), cursor, false) !== undefined) {
      matched = length;
      break;
    }
  }
  const expected = pattern.map((line) => `  ${line}`).join('\n');
  return `could not find the hunk's context in the file; the first line that does not match is "${pattern[matched]}" (after ${matched} matching line${matched === 1 ? '' : 's'}). Expected lines:\n${expected}`;
}
