import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * A `tools/call` request as serve's stdio transport reads it most of the time: nothing but
 * `jsonrpc`, `id`, `method` and `params`, whose params name a tool, maybe give it an object of
 * arguments and maybe ask for progress (`_meta` holding a `progressToken` and nothing else, as a
 * client that shows progress sends it on every call) — no other `_meta` (2026-07-28 envelope,
 * trace context), no `task`, no `requestState`. Such a request is the same on every protocol
 * revision serve speaks over stdio, and the SDK's schemas accept it as it is, so the lean path
 * (TaskServer) may run it without them.
 */
export interface PlainToolsCall {
  jsonrpc: '2.0';
  id: string | number;
  method: 'tools/call';
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken: string | number } };
}

/** Whether a parsed JSON line is a plain `tools/call` (see PlainToolsCall); anything else takes the SDK's route. */
export function isPlainToolsCall(value: unknown): value is PlainToolsCall {
  if (!isRecord(value) || value.method !== 'tools/call' || value.jsonrpc !== '2.0') return false;
  const { id, params } = value;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (!isRecord(params) || typeof params.name !== 'string') return false;
  for (const key in value)
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  for (const key in params) {
    if (key === 'name') continue;
    if (key === '_meta' ? !isProgressOnly(params._meta) : key !== 'arguments' || !isRecord(params.arguments))
      return false;
  }
  return true;
}

/** `_meta` with a progress token the SDK's schema accepts (a string or a safe integer) and no other key. */
function isProgressOnly(meta: unknown): boolean {
  if (!isRecord(meta)) return false;
  const token = meta.progressToken;
  if (typeof token !== 'string' && !Number.isSafeInteger(token)) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  return true;
}

/**
 * A tool result as the SDK's 2025-11-25 `CallToolResult` schema would give it back when that
 * schema accepts it unchanged: text content blocks of `type` and `text` only, a boolean `isError`,
 * an object `structuredContent`, keys in the schema's order (`content`, `structuredContent`,
 * `isError`) as its parse writes them. Undefined for anything else (images, annotations, `_meta`,
 * other keys), which the caller checks with the SDK's own schema.
 */
export function plainCallToolResult(result: CallToolResult): CallToolResult | undefined {
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content)) return undefined;
  for (const key in result)
    if ((key !== 'content' && key !== 'structuredContent' && key !== 'isError') || result[key] === undefined)
      return undefined;
  for (const block of content) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
    for (const key in block) if (key !== 'type' && key !== 'text') return undefined;
  }
  if (isError !== undefined && typeof isError !== 'boolean') return undefined;
  if (structuredContent !== undefined && !isRecord(structuredContent)) return undefined;
  return {
    content: content.map((block) => ({ type: 'text', text: (block as { text: string }).text })),
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
