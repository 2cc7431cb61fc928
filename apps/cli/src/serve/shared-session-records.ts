import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonNestsDeeperThan, tooDeepMessage } from '../stdio/json-depth.js';
import { sendJsonRpcError } from './mcp-endpoint.js';

/** What another replica needs to answer a request of an MCP session it has never seen. */
export interface SharedSessionRecord {
  /** The Mcp-Session-Id. */
  id: string;
  quiverSessionId: string;
  /** The params of the client's initialize request, replayed when a replica rebuilds the session. */
  initialize: Record<string, unknown>;
  /** Tools tool_search found, oldest first. */
  revealedTools: string[];
}

/** The host's shared table of serve sessions (PostgreSQL), as `quiver serve --http` uses it. */
export interface SharedSessionRecords {
  save(record: SharedSessionRecord): Promise<void>;
  /** The record if a replica saw the session within `idleMs`, marked seen now. */
  touch(id: string, idleMs: number): Promise<SharedSessionRecord | undefined>;
  reveal(id: string, names: readonly string[]): Promise<void>;
  delete(id: string): Promise<void>;
  deleteIdle(idleMs: number): Promise<number>;
}

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type JsonBody =
  | { ok: true; body: unknown }
  | { ok: false; problem: 'too_large' | 'not_json' | 'too_deep' };

/**
 * The JSON body of a POST, read here (not by the transport) so the params of an initialize
 * request can be recorded for other replicas. What is wrong with it otherwise: the caller answers
 * as the SDK's transport does (413 when too large, 400 with -32700 when not JSON).
 */
export async function readJsonBody(request: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, problem: 'too_large' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks);
  // The SDK's validators recurse: a body nested thousands of levels deep would overflow them (a 500).
  if (jsonNestsDeeperThan(text)) return { ok: false, problem: 'too_deep' };
  try {
    return { ok: true, body: JSON.parse(text.toString('utf8')) as unknown };
  } catch {
    return { ok: false, problem: 'not_json' };
  }
}

/** The answer to a POST body that could not be read, as the SDK's transport gives it (-32600 for one nested too deeply). */
export function refuseUnreadableBody(
  response: ServerResponse,
  problem: Extract<JsonBody, { ok: false }>['problem'],
): void {
  if (problem === 'too_large')
    sendJsonRpcError(
      response,
      413,
      `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes (one JSON-RPC message or a batch).`,
    );
  else if (problem === 'too_deep') sendJsonRpcError(response, 400, tooDeepMessage('the body'), -32600);
  else
    sendJsonRpcError(
      response,
      400,
      'Parse error: Invalid JSON. The body of a POST must be one JSON-RPC message or a batch.',
      -32700,
    );
}

/** The params of the initialize request in a POST body (a single message or a batch). */
export function initializeParams(body: unknown): Record<string, unknown> | undefined {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (message && typeof message === 'object' && (message as { method?: unknown }).method === 'initialize') {
      const params = (message as { params?: unknown }).params;
      if (params && typeof params === 'object') return params as Record<string, unknown>;
    }
  }
  return undefined;
}
