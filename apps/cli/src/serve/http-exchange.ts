import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { sendJsonRpcError } from './mcp-endpoint.js';
import { readJsonBody, refuseUnreadableBody } from './shared-session-records.js';

/** What answers one exchange: the SDK's Streamable HTTP transport (`handleRequest` of its web-standard class). */
export interface WebExchangeHandler {
  handleRequest(request: Request, options?: { parsedBody?: unknown; authInfo?: AuthInfo }): Promise<Response>;
}

/** How long a POST's event stream may go without its first event before its headers are sent anyway. */
const FIRST_EVENT_WAIT_MS = 1_000;

/** The bytes of one SSE event as the SDK's transport writes a message (no event id: serve keeps no event store). */
const EVENT_PREFIX = Buffer.from('event: message\ndata: ');
const EVENT_END = Buffer.from('\n\n');
const LINE_FEED = 0x0a;

/**
 * Serves one HTTP request of an MCP session through the SDK's web-standard transport, translating
 * between Node and web objects directly. The body is read here and handed over parsed (the web
 * request carries no body stream), and the answer is written in one piece when it is complete:
 * a POST whose event stream ends with its only event, the call's result, is answered with that
 * message as `application/json` (both are Streamable HTTP answers every client accepts). A stream
 * that carries more (progress, a question to the client) is sent as it comes, as before.
 */
export async function exchange(
  handler: WebExchangeHandler,
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody?: unknown,
): Promise<void> {
  let body = parsedBody;
  if (body === undefined && request.method === 'POST') {
    const read = await readJsonBody(request);
    if (!read.ok) return refuseUnreadableBody(response, read.problem);
    body = read.body;
  }
  let webRequest: Request;
  try {
    webRequest = new Request(requestUrl(request), {
      method: request.method ?? 'GET',
      headers: headersOf(request),
    });
  } catch {
    return sendJsonRpcError(response, 400, 'Bad request: the request line or headers could not be read.');
  }
  const authInfo = (request as IncomingMessage & { auth?: AuthInfo }).auth;
  const answer = await handler.handleRequest(webRequest, {
    ...(body !== undefined ? { parsedBody: body } : {}),
    ...(authInfo ? { authInfo } : {}),
  });
  await writeAnswer(answer, request.method === 'POST', response);
}

function requestUrl(request: IncomingMessage): string {
  const path = request.url ?? '/';
  try {
    return new URL(path, `http://${request.headers.host ?? 'localhost'}`).href;
  } catch {
    return new URL(path, 'http://localhost').href;
  }
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2)
    headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}

async function writeAnswer(answer: Response, post: boolean, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of answer.headers) headers[name] = value;
  if (answer.body === null) {
    response.writeHead(answer.status, headers);
    response.end();
    return;
  }
  const reader = answer.body.getReader();
  // A client that goes away ends the stream: the transport forgets it (as for a closed SSE stream).
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  response.once('close', cancel);
  try {
    if (!headers['content-type']?.startsWith('text/event-stream')) {
      const whole = await readToEnd(reader);
      headers['content-length'] = String(whole.length);
      response.writeHead(answer.status, headers);
      response.end(whole);
      return;
    }
    if (!post) {
      // A GET's stream lasts: its headers go at once.
      response.writeHead(answer.status, headers);
      response.flushHeaders();
      return await pump(reader, reader.read(), response);
    }
    const sendHeaders = () => {
      if (response.headersSent || response.destroyed) return;
      response.writeHead(answer.status, headers);
      response.flushHeaders();
    };
    const late = setTimeout(sendHeaders, FIRST_EVENT_WAIT_MS);
    late.unref();
    const first = await reader.read().finally(() => clearTimeout(late));
    if (response.destroyed) return;
    if (first.done) {
      if (!response.headersSent) response.writeHead(answer.status, headers);
      response.end();
      return;
    }
    // The transport closes a POST's stream in the same turn as it writes the final answer.
    const next = reader.read();
    const after = await Promise.race([next, afterPendingCallbacks()]);
    if (after?.done && !response.headersSent) {
      const message = onlyMessage(first.value);
      if (message) {
        const json: Record<string, string> = {
          'content-type': 'application/json',
          'content-length': String(message.length),
        };
        if (headers['mcp-session-id']) json['mcp-session-id'] = headers['mcp-session-id'];
        response.writeHead(answer.status, json);
        response.end(message);
        return;
      }
      headers['content-length'] = String(first.value.length);
      response.writeHead(answer.status, headers);
      response.end(first.value);
      return;
    }
    sendHeaders();
    if (!response.write(first.value)) await drained(response);
    return await pump(reader, next, response);
  } finally {
    response.off('close', cancel);
  }
}

/** Resolves after the callbacks already queued (a stream closed in the turn that wrote to it). */
function afterPendingCallbacks(): Promise<undefined> {
  return Promise.resolve().then(() => Promise.resolve(undefined));
}

/** The JSON text of a chunk that is exactly one message event, or undefined. */
function onlyMessage(chunk: Uint8Array): Buffer | undefined {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const end = bytes.length - EVENT_END.length;
  if (end <= EVENT_PREFIX.length) return undefined;
  if (!bytes.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)) return undefined;
  if (!bytes.subarray(end).equals(EVENT_END)) return undefined;
  const data = bytes.subarray(EVENT_PREFIX.length, end);
  // One data line: JSON.stringify writes no raw line feed.
  return data.includes(LINE_FEED) ? undefined : data;
}

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>,
  response: ServerResponse,
): Promise<void> {
  let read = await pending;
  while (!read.done) {
    if (response.destroyed) return;
    if (!response.write(read.value)) await drained(response);
    read = await reader.read();
  }
  response.end();
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
