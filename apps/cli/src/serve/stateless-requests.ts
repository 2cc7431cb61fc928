import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { ServeConnection } from './mcp-server.js';
import { type JsonBody, MAX_BODY_BYTES, readJsonBody } from './shared-session-records.js';
import { serveTasks } from './tasks.js';

/** What a stateless (2026-07-28) request is answered by, and how 2025-11-25 requests go on. */
export interface StatelessRequests {
  /**
   * Answers a POST without an Mcp-Session-Id when it speaks revision 2026-07-28 (true); otherwise
   * returns false with the body it read, for the session-based (2025-11-25) path.
   */
  answer(request: IncomingMessage, response: ServerResponse): Promise<{ answered: true } | LegacyPost>;
  close(): Promise<void>;
}

/** A 2025-era POST whose body was read (or found unreadable) while classifying it. */
export interface LegacyPost {
  answered: false;
  read: JsonBody;
}

/**
 * Revision 2026-07-28 carries the protocol version and the client's capabilities in every
 * request, so no session is needed: each request gets a connection of its own (a fresh Quiver
 * session, with the same permissions and log) that closes when the answer is sent. Any replica
 * answers any such request; nothing is recorded for it. The SDK validates the headers against
 * the body and refuses a revision it does not serve.
 */
export function statelessRequests(
  openConnection: (authInfo: AuthInfo | undefined) => ServeConnection,
  log: (message: string) => void,
): StatelessRequests {
  const handler = createMcpHandler(
    async ({ authInfo }) => {
      const connection = openConnection(authInfo);
      // A tool list that changes while a request runs (a plugin registering a tool, a bridged
      // server's list changing) is announced on the open subscriptions/listen streams.
      connection.onToolsChanged = () => handler.notify.toolsChanged();
      connection.server.onclose = () => {
        // A call that became a task outlives its request; its session closes when it ends.
        serveTasks()
          .endedIn(connection.session.id)
          .then(() => connection.close())
          .catch((error: unknown) => log(`closing a stateless request's session failed: ${String(error)}`));
      };
      await connection.declareRelayedCapabilities();
      return connection.server;
    },
    {
      legacy: 'reject',
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (error) => {
        // A refused request is the client's to fix and is answered with the reason; log the rest.
        if (!error.message.startsWith('Rejected')) log(`MCP 2026-07-28 request failed: ${error.message}`);
      },
    },
  );
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => log(`MCP 2026-07-28 request failed: ${error.message}`),
  });
  return {
    async answer(request, response) {
      const read = await readJsonBody(request);
      if (!read.ok) return { answered: false, read };
      if (await isLegacyRequest(await toWebRequest(request, read.body), read.body))
        return { answered: false, read };
      await serve(request, response, read.body);
      return { answered: true };
    },
    close: () => handler.close(),
  };
}
