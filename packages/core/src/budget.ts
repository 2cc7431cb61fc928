import { type Attachment, DEFAULT_RESULT_BUDGET, type ToolResult } from '@quiver/types';
import { snapshotResult } from './snapshot-result.js';

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
 * The one budget rule. A result's size is the characters of its text (value, or error for
 * failures) plus those of the JSON of its `structured`, measured on a snapshot so that a getter
 * or Proxy cannot grow after the check. Over `budget`, the text is cut to fit with the marker and
 * `structured` is dropped (a consumer cannot trust a cut JSON document). Attachments are not
 * counted here: they have their own cap per batch. Anything that is not a result comes back as
 * an `execution_failed` result.
 */
export function trimResult(result: ToolResult, budget: number): ToolResult {
  const safeBudget = Number.isNaN(budget) ? 0 : Math.max(0, Math.floor(budget));
  const snapshot = snapshotResult(result);
  if (snapshot === undefined) return trimResult(NOT_A_RESULT, safeBudget);
  const { text, structuredJson } = snapshot;
  if (text.length + (structuredJson?.length ?? 0) <= safeBudget) return snapshot.result;
  const trimmed = trimText(text, safeBudget);
  const { structured: _dropped, ...rest } = snapshot.result;
  return rest.ok ? { ...rest, value: trimmed } : { ...rest, error: trimmed };
}

const NOT_A_RESULT: ToolResult = Object.freeze({
  ok: false,
  code: 'execution_failed',
  error: 'The tool returned something that is not a ToolResult.',
});

/** Attachments a batch may return in all, whatever the text budget. */
export interface AttachmentLimits {
  /** Attachments per batch; default 10. */
  count: number;
  /** UTF-8 bytes of their `data` and `text` per batch; default 10 MiB. */
  bytes: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: Readonly<AttachmentLimits> = Object.freeze({
  count: 10,
  bytes: 10 * 1024 * 1024,
});

/**
 * Applies the batch's attachment cap to results in input order: attachments past the count or
 * the bytes are dropped, and the text of the result that lost them says so (within its budget).
 */
export function capAttachments(
  results: ToolResult[],
  limits: Readonly<AttachmentLimits>,
  budgetOf: (index: number) => number,
): ToolResult[] {
  let count = 0;
  let bytes = 0;
  return results.map((result, index) => {
    if (!result.ok || result.attachments === undefined) return result;
    const kept: Attachment[] = [];
    let dropped = 0;
    for (const attachment of result.attachments) {
      const size = attachmentBytes(attachment);
      if (count + 1 > limits.count || bytes + size > limits.bytes) {
        dropped += 1;
        continue;
      }
      count += 1;
      bytes += size;
      kept.push(attachment);
    }
    if (dropped === 0) return result;
    const note = `[${dropped} attachment${dropped === 1 ? '' : 's'} dropped: over the cap of ${limits.count} attachments and ${limits.bytes} bytes per batch]`;
    const { attachments: _all, ...rest } = result;
    const capped: ToolResult = { ...rest, value: `${result.value}\n${note}` };
    if (kept.length > 0 && capped.ok) capped.attachments = kept;
    return trimResult(capped, budgetOf(index));
  });
}

function attachmentBytes(attachment: Attachment): number {
  return (
    (typeof attachment.data === 'string' ? Buffer.byteLength(attachment.data) : 0) +
    (typeof attachment.text === 'string' ? Buffer.byteLength(attachment.text) : 0)
  );
}
