import type { Attachment, ContentAnnotations, ToolErrorCode, ToolResult } from '@quiver/types';

export interface ResultSnapshot {
  /** A plain copy: no getters, no Proxy, `structured` rebuilt from its JSON. */
  result: ToolResult;
  text: string;
  /** The JSON the size of `structured` is measured by; undefined when there is none. */
  structuredJson: string | undefined;
}

/**
 * Reads each field of a result exactly once into plain data, so that what is measured is what
 * is returned: a getter or Proxy that answers differently on a second read cannot pass a budget
 * check with a small value and deliver a large one. `structured` that cannot be serialized to
 * JSON (cycles, BigInt, a throwing getter) is dropped. Undefined when `value` is not a result.
 */
export function snapshotResult(value: unknown): ResultSnapshot | undefined {
  try {
    if (typeof value !== 'object' || value === null) return undefined;
    const source = value as Record<string, unknown>;
    const okFlag = source.ok;
    if (okFlag === true) {
      const text = source.value;
      if (typeof text !== 'string') return undefined;
      const structured = snapshotStructured(source.structured);
      const attachments = snapshotAttachments(source.attachments);
      const annotations = snapshotAnnotations(source.annotations);
      const result: ToolResult = { ok: true, value: text };
      if (structured.value !== undefined) result.structured = structured.value;
      if (attachments !== undefined) result.attachments = attachments;
      if (annotations !== undefined) result.annotations = annotations;
      return { result, text, structuredJson: structured.json };
    }
    if (okFlag === false) {
      const code = source.code;
      const text = source.error;
      if (typeof code !== 'string' || typeof text !== 'string') return undefined;
      const structured = snapshotStructured(source.structured);
      const result: ToolResult = { ok: false, code: code as ToolErrorCode, error: text };
      if (structured.value !== undefined) result.structured = structured.value;
      return { result, text, structuredJson: structured.json };
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function snapshotStructured(value: unknown): { value: unknown; json: string | undefined } {
  if (value === undefined) return { value: undefined, json: undefined };
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return { value: undefined, json: undefined };
    return { value: JSON.parse(json) as unknown, json };
  } catch {
    return { value: undefined, json: undefined };
  }
}

const ATTACHMENT_FIELDS = [
  'type',
  'mimeType',
  'data',
  'text',
  'uri',
  'name',
  'title',
  'description',
] as const;

/** MCP content annotations, copied field by field like the rest of the snapshot. */
function snapshotAnnotations(value: unknown): ContentAnnotations | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { audience, priority, lastModified } = value as Record<string, unknown>;
  const copy: ContentAnnotations = {};
  if (Array.isArray(audience))
    copy.audience = audience.filter(
      (role): role is 'user' | 'assistant' => role === 'user' || role === 'assistant',
    );
  if (typeof priority === 'number' && Number.isFinite(priority)) copy.priority = priority;
  if (typeof lastModified === 'string') copy.lastModified = lastModified;
  return Object.keys(copy).length > 0 ? copy : undefined;
}

function snapshotAttachments(value: unknown): Attachment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const copies: Attachment[] = [];
  for (const item of Array.from(value as unknown[])) {
    if (typeof item !== 'object' || item === null) continue;
    const copy: Record<string, unknown> = {};
    for (const field of ATTACHMENT_FIELDS) {
      const fieldValue = (item as Record<string, unknown>)[field];
      if (typeof fieldValue === 'string') copy[field] = fieldValue;
    }
    const size = (item as { size?: unknown }).size;
    if (typeof size === 'number' && Number.isFinite(size) && size >= 0) copy.size = size;
    const annotations = snapshotAnnotations((item as { annotations?: unknown }).annotations);
    if (annotations !== undefined) copy.annotations = annotations;
    if (copy.type !== undefined) copies.push(copy as unknown as Attachment);
  }
  return copies.length > 0 ? copies : undefined;
}
