import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/node';
import { type AuthInfo, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { QuiverError } from '@quiver/types';
import { errorMessage } from '@quiver/types';
import { type Caller, ServeAuthenticator, type ServeAuthSettings, sendWebResponse } from './bearer-auth.js';
import {
  ConnectionGuard,
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  serverTimeouts,
} from './http-connection-limits.js';
import { exchange } from './http-exchange.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './http-session-limits.js';
import { type HttpSession, HttpSessions } from './http-sessions.js';
import { isLoopbackHost, isWildcardHost, type ListenAddress, urlHost } from './listen-address.js';
import { MCP_PATH, sendJsonRpcError } from './mcp-endpoint.js';
import type { ServeConnection } from './mcp-server.js';
import { type HandleHttpRequest } from './rebuilt-session.js';
import {
  handleSharedRequest,
  type OpeningRequest,
  sweepSharedRecords,
  withRecordedCaller,
} from './shared-http-requests.js';
import { SharedSessionState } from './shared-session.js';
import { type JsonBody, refuseUnreadableBody, type SharedSessionRecords } from './shared-session-records.js';
import { statelessRequests } from './stateless-requests.js';

const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

export interface HttpServeOptions {
  address: ListenAddress;
  /**
   * A new connection; `resume` continues a Quiver session another replica started; `caller` is
   * who signed in (with `auth`), whose personality the session runs with.
   */
  openConnection: (resume?: { sessionId: string }, caller?: Caller) => ServeConnection;
  /** `serve.auth`: every request needs a bearer token of this authorization server. */
  auth?: ServeAuthSettings;
  log: (message: string) => void;
  /** Idle timeout and cap of MCP sessions; default 30 minutes and 100. */
  limits?: SessionLimits;
  /** Header and body timeouts, open connections in total and per MCP session. */
  connectionLimits?: ConnectionLimits;
  /** With PostgreSQL storage: the shared session records, so any replica answers any session. */
  sharedRecords?: () => SharedSessionRecords | undefined;
}

export interface RunningHttpServer {
  /** e.g. http://127.0.0.1:8765/mcp, with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Streamable HTTP at /mcp, one Quiver session per MCP session id, closed when idle too long.
 * Host and Origin headers are checked against the loopback names (and the bound host) so a web
 * page cannot reach the server through DNS rebinding.
 */
export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const { address, log } = options;
  const limits = options.limits ?? DEFAULT_SESSION_LIMITS;
  const connectionLimits = options.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const sessions = new HttpSessions(limits, log);
  const boundHost = urlHost(address.host).toLowerCase();
  const allowedHostnames = [...new Set([...LOCAL_HOSTNAMES, boundHost])];
  // A wildcard bind (only with --allow-remote) has no name to check the Host header against.
  const validateHost = isWildcardHost(address.host) ? () => true : hostHeaderValidation(allowedHostnames);
  const validateOrigin = originValidation(allowedHostnames);

  const drop = (sessionId: string) => sessions.drop(sessionId);
  const rebuilding = new Map<string, Promise<HttpSession>>();
  // Who signed in for each request and MCP session (with `auth`).
  const callers = new WeakMap<IncomingMessage | AuthInfo, Caller>();
  const sessionCallers = new WeakMap<ServeConnection, string>();
  let authenticator: ServeAuthenticator | undefined;
  const sweeper = options.sharedRecords ? sweepSharedRecords(options.sharedRecords, limits, log) : undefined;

  const stateless = statelessRequests(
    (authInfo) => options.openConnection(undefined, authInfo && callers.get(authInfo)),
    log,
  );

  const openSession = async (
    request: IncomingMessage,
    response: ServerResponse,
    opening?: OpeningRequest,
    body?: unknown,
  ) => {
    if (!(await sessions.makeRoom()))
      return sendJsonRpcError(
        response,
        503,
        `Too many MCP sessions: all ${limits.maxSessions} are busy. Close sessions you no longer use (DELETE ${MCP_PATH} with their Mcp-Session-Id) or start quiver serve with a larger --max-sessions.`,
      );
    const caller = callers.get(request);
    const connection = options.openConnection(undefined, caller);
    if (caller) sessionCallers.set(connection, caller.subject);
    const shared = opening && new SharedSessionState(opening.records, log);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        const handle: HandleHttpRequest = (req, res, body) => exchange(transport, req, res, body);
        sessions.add(sessionId, { handle, connection, ...(shared ? { shared } : {}) });
        if (!shared || !opening?.initialize) return;
        shared.id = sessionId;
        shared.write(
          opening.records.save({
            id: sessionId,
            quiverSessionId: connection.session.id,
            initialize: caller ? withRecordedCaller(opening.initialize, caller.subject) : opening.initialize,
            revealedTools: [],
          }),
        );
      },
      onsessionclosed: (sessionId) => drop(sessionId),
    });
    connection.server.onclose = () => {
      if (transport.sessionId) void drop(transport.sessionId);
    };
    shared?.follow(connection.session);
    await connection.declareRelayedCapabilities();
    await connection.server.connect(shared ? shared.guard(transport) : transport);
    await exchange(transport, request, response, opening ? opening.body : body);
    // Anything but an initialize request was refused by the transport: nothing to keep.
    if (transport.sessionId === undefined) await connection.close();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (authenticator?.isMetadataPath(path) && request.method === 'GET')
      return authenticator.answerMetadata(response);
    if (path !== MCP_PATH)
      return sendJsonRpcError(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (!validateHost(request, response) || !validateOrigin(request, response)) return;
    let caller: Caller | undefined;
    if (authenticator) {
      const signedIn = await authenticator.authenticate(request);
      if (!signedIn.ok) return sendWebResponse(response, signedIn.answer);
      caller = signedIn.caller;
      callers.set(request, caller);
      callers.set(caller.authInfo, caller);
      // The SDK's Node adapter hands `auth` to the request's handlers.
      (request as IncomingMessage & { auth?: AuthInfo }).auth = caller.authInfo;
    }
    // Revision 2026-07-28 needs no session: a POST without one may be a stateless request.
    let read: JsonBody | undefined;
    if (request.method === 'POST' && request.headers['mcp-session-id'] === undefined) {
      const classified = await stateless.answer(request, response);
      if (classified.answered) return;
      read = classified.read;
      if (!read.ok) return refuseUnreadableBody(response, read.problem);
    }
    const records = options.sharedRecords?.();
    if (records)
      return handleSharedRequest({
        request,
        response,
        ...(read?.ok ? { body: read.body } : {}),
        ...(caller ? { caller: caller.subject } : {}),
        records,
        sessions,
        limits,
        openSession,
        reopen: (quiverSessionId: string) => options.openConnection({ sessionId: quiverSessionId }, caller),
        log,
        rebuilding,
      });
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = sessions.get(sessionId);
      if (!entry)
        return sendJsonRpcError(
          response,
          404,
          'Session not found (closed, or idle longer than the session idle timeout): initialize a new MCP session.',
        );
      if (caller && sessionCallers.get(entry.connection) !== caller.subject)
        return sendJsonRpcError(
          response,
          403,
          'Forbidden: this MCP session was opened by another caller; initialize a session of your own.',
        );
      return sessions.track(entry, response, () => entry.handle(request, response));
    }
    if (request.method !== 'POST')
      return sendJsonRpcError(
        response,
        400,
        'Bad request: no MCP session id; start with an initialize POST.',
      );
    return openSession(request, response, undefined, read?.ok ? read.body : undefined);
  };

  const httpServer = createServer(serverTimeouts(connectionLimits), (request, response) => {
    if (!guard.admit(request, response)) return;
    handle(request, response).catch((error: unknown) => {
      log(`HTTP request failed: ${errorMessage(error)}`);
      if (response.headersSent) response.end();
      else if (isStorageFault(error))
        // The database went away (a restart, a failover): the client may retry; say so, with the code.
        sendJsonRpcError(response, 503, `${error.code}: ${error.message}${error.fix ? ` ${error.fix}` : ''}`);
      else sendJsonRpcError(response, 500, 'Internal server error.');
    });
  });
  const guard = new ConnectionGuard(httpServer, connectionLimits, sendJsonRpcError);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(address.port, address.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const shownHost = isWildcardHost(address.host) ? '127.0.0.1' : urlHost(address.host);
  if (options.auth)
    authenticator = new ServeAuthenticator(options.auth, `http://${shownHost}:${port}${MCP_PATH}`);
  if (!isLoopbackHost(address.host) && !options.auth)
    log(`serving on ${address.host}: anyone who can reach this address can run the allowed tools.`);

  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    async close() {
      if (sweeper) clearInterval(sweeper);
      await stateless.close();
      await sessions.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

/** A storage fault (by its code: the error may come from another copy of @quiver/types). */
function isStorageFault(error: unknown): error is QuiverError {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (code === 'storage_unavailable' || code === 'storage_damaged');
}
