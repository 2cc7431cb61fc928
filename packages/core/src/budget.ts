import { DEFAULT_RESULT_BUDGET, resultText, type ToolResult } from '@quiver/types';

/**
 * Characters each call of a batch may return: an even split of the total, rounded down.
 * A total that is not a number falls back to the default; a negative one counts as 0.
 */
export function splitBudget(total: number, count: number): number {
  const safeTotal = Number.isNaN(total) ? DEFAULT_RESULT_BUDGET : Math.max(0, total);
  if (!(count > 0)) return safeTotal;
  return Math.floor(safeTotal / Math.floor(count));
}

function truncationMarker(originalLength: number): string {
  return `[truncated — ${originalLength} chars total]`;
}

/** Cuts `text` to at most `length` chars without splitting a surrogate pair. */
function cutText(text: string, length: number): string {
  if (length <= 0) return '';
  let end = Math.min(length, text.length);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Fits `text` into `budget` chars, marker included; the marker alone is cut when nothing else fits. */
export function trimText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const marker = truncationMarker(text.length);
  // One char of content plus the separating newline is the least worth keeping next to the marker.
  const room = budget - marker.length - 1;
  if (room < 1) return cutText(marker, budget);
  return `${cutText(text, room)}\n${marker}`;
}

/**
 * Cuts a result whose text (value, or error for failures) is longer than `budget` so that the
 * whole text, marker included, fits. `structured` and `attachments` are kept.
 */
export function trimResult(result: ToolResult, budget: number): ToolResult {
  const text = resultText(result);
  if (text.length <= budget) return result;
  const trimmed = trimText(text, Number.isNaN(budget) ? 0 : Math.max(0, Math.floor(budget)));
  return result.ok ? { ...result, value: trimmed } : { ...result, error: trimmed };
}
