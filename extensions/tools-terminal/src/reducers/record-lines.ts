import { endsThatFit, type RecognizerInput, WINDOW_CUT_LINE } from './reducer-input.js';

/** What the record reducers share: how long a key line may be, how many records make a shape, and which lines say a run failed. */

export const MAX_KEY_CHARS = 160;
export const MIN_RECORDS = 20;
export const SEPARATOR = /^[-=+|\s]+$/;
export const FAILURE =
  /\b(?:FATAL|CRITICAL|ERROR|FAIL(?:ED|URE)?)\b|^Traceback \(|^\w+(?:Error|Exception): |^\s+at \S+ \(/;

export function clip(line: string): string {
  return line.length <= MAX_KEY_CHARS ? line : `${line.slice(0, MAX_KEY_CHARS)}…`;
}

/** The first items whose joined length stays within `budget` (at least one). */
export function withinBudget(items: readonly string[], budget: number, separator: string): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const item of items) {
    if (kept.length > 0 && used + item.length + separator.length > budget) break;
    kept.push(item);
    used += item.length + separator.length;
  }
  return kept;
}

export function contentLines(input: RecognizerInput): string[] {
  return input.lines.filter((line) => !WINDOW_CUT_LINE.test(line));
}

/** Whole rows (clipped) from the start and the end of a table, within `room` characters. */
export function wholeRows(rows: readonly string[], room: number): string[] {
  const { head, tail, hidden } = endsThatFit(rows, room, { headPerTail: 3, clip });
  if (head.length + tail.length < 2) return [];
  if (hidden === 0) return ['rows in full:', ...head, ...tail];
  return [
    `rows in full (the first ${head.length} and the last ${tail.length}):`,
    ...head,
    `[… ${hidden.toLocaleString('en-US')} more, by key above …]`,
    ...tail,
  ];
}
