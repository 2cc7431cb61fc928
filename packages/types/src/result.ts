import type { ToolErrorCode } from './errors.js';

export interface Attachment {
  type: 'image' | 'audio' | 'file' | 'resource';
  mimeType?: string;
  /** base64 payload for binary content. */
  data?: string;
  /** text payload for embedded text resources. */
  text?: string;
  uri?: string;
  name?: string;
  /** What a linked resource is (MCP resource-link `description`). */
  description?: string;
  /** A linked resource's display name (MCP resource-link `title`). */
  title?: string;
  /** A linked resource's size in bytes, as its server reported it (MCP resource-link `size`). */
  size?: number;
  /** Who the content is for and how much it matters (MCP content `annotations`). */
  annotations?: ContentAnnotations;
}

/** MCP content annotations, kept as the server sent them. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface ToolSuccess {
  ok: true;
  value: string;
  structured?: unknown;
  attachments?: Attachment[];
  /** Who the text of `value` is for and how much it matters (MCP annotations of its text content). */
  annotations?: ContentAnnotations;
}

export interface ToolFailure {
  ok: false;
  code: ToolErrorCode;
  error: string;
  structured?: unknown;
}

export type ToolResult = ToolSuccess | ToolFailure;

export function ok(
  value: string,
  extra: { structured?: unknown; attachments?: Attachment[]; annotations?: ContentAnnotations } = {},
): ToolSuccess {
  const result: ToolSuccess = { ok: true, value };
  if (extra.structured !== undefined) result.structured = extra.structured;
  if (extra.attachments !== undefined && extra.attachments.length > 0) result.attachments = extra.attachments;
  if (extra.annotations !== undefined) result.annotations = extra.annotations;
  return result;
}

export function fail(code: ToolErrorCode, error: string, structured?: unknown): ToolFailure {
  const result: ToolFailure = { ok: false, code, error };
  if (structured !== undefined) result.structured = structured;
  return result;
}

/** The text a model sees for a result: the value, or the error. */
export function resultText(result: ToolResult): string {
  return result.ok ? result.value : result.error;
}

/** True when `value` has the shape of a ToolResult (used to catch tools that return garbage). */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.ok === true) return typeof v.value === 'string';
  if (v.ok === false) return typeof v.code === 'string' && typeof v.error === 'string';
  return false;
}
