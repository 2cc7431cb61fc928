import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { exchange } from './http-exchange.js';
import type { ServeConnection } from './mcp-server.js';
import type { SharedSessionState } from './shared-session.js';
import type { SharedSessionRecord } from './shared-session-records.js';

export type HandleHttpRequest = (
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody?: unknown,
) => Promise<void>;

// Requests made to the local transport only; nothing listens on this address.
const LOCAL_URL = 'http://127.0.0.1/mcp';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * An MCP session another replica opened, rebuilt here from its shared record: the client's
 * initialize request and initialized notification are replayed to a fresh SDK server under the
 * same Mcp-Session-Id (only public SDK API), and the tools tool_search found are revealed again.
 */
export async function rebuildSession(options: {
  record: SharedSessionRecord;
  connection: ServeConnection;
  state: SharedSessionState;
  onClosed: (sessionId: string) => void;
}): Promise<HandleHttpRequest> {
  const { record, connection, state } = options;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => record.id,
    onsessionclosed: (sessionId) => options.onClosed(sessionId),
  });
  await connection.declareRelayedCapabilities();
  await connection.server.connect(state.guard(transport));
  const initialize = await transport.handleRequest(
    new Request(LOCAL_URL, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: record.initialize }),
    }),
  );
  const protocolVersion = negotiatedVersion(await initialize.text());
  if (!initialize.ok || transport.sessionId !== record.id || protocolVersion === undefined)
    throw new Error(
      `replaying the initialize request of MCP session ${record.id} failed (HTTP ${initialize.status})`,
    );
  const initialized = await transport.handleRequest(
    new Request(LOCAL_URL, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': record.id, 'mcp-protocol-version': protocolVersion },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await initialized.text();
  await state.catchUp(connection.session, record.revealedTools);
  return (request, response, body) => exchange(transport, request, response, body);
}

/** The protocol version in an initialize answer, sent as JSON or as one SSE event. */
function negotiatedVersion(body: string): string | undefined {
  const json = body.trimStart().startsWith('{')
    ? body
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('');
  try {
    const answer = JSON.parse(json) as { result?: { protocolVersion?: unknown } };
    const version = answer.result?.protocolVersion;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
