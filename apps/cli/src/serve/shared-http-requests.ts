import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '@quiver/types';
import type { SessionLimits } from './http-session-limits.js';
import type { HttpSession, HttpSessions } from './http-sessions.js';
import { MCP_PATH, sendJsonRpcError } from './mcp-endpoint.js';
import type { ServeConnection } from './mcp-server.js';
import { rebuildSession } from './rebuilt-session.js';
import { SharedSessionState } from './shared-session.js';
import {
  initializeParams,
  readJsonBody,
  refuseUnreadableBody,
  type SharedSessionRecord,
  type SharedSessionRecords,
} from './shared-session-records.js';

/** An initialize POST read ahead (shared sessions record its params for other replicas). */
export interface OpeningRequest {
  records: SharedSessionRecords;
  body: unknown;
  initialize: Record<string, unknown> | undefined;
}

export interface SharedRequest {
  request: IncomingMessage;
  response: ServerResponse;
  /** The POST body when it was read already (to tell a 2026-07-28 request from a 2025-11-25 one). */
  body?: unknown;
  /** Who signed in for this request (with `serve.auth`): only the caller who opened a session may use it. */
  caller?: string;
  records: SharedSessionRecords;
  sessions: HttpSessions;
  limits: SessionLimits;
  openSession: (request: IncomingMessage, response: ServerResponse, opening: OpeningRequest) => Promise<void>;
  /** A connection resuming the Quiver session of a shared record. */
  reopen: (quiverSessionId: string) => ServeConnection;
  log: (message: string) => void;
  /** Rebuilds under way, so two requests of one session reaching a replica at once rebuild it once. */
  rebuilding: Map<string, Promise<HttpSession>>;
}

const SESSION_GONE =
  'Session not found (closed, or idle longer than the session idle timeout): initialize a new MCP session.';

/**
 * A request when sessions live in PostgreSQL: the shared record decides whether the session
 * exists (so a DELETE through one replica ends it on all), and a replica that does not hold the
 * session rebuilds it from the record instead of answering 404.
 */
export async function handleSharedRequest(shared: SharedRequest): Promise<void> {
  const { request, response, records, sessions, limits } = shared;
  const read =
    'body' in shared
      ? ({ ok: true, body: shared.body } as const)
      : request.method === 'POST'
        ? await readJsonBody(request)
        : undefined;
  if (read?.ok === false) return refuseUnreadableBody(response, read.problem);
  const body = read?.body;
  const sessionId = request.headers['mcp-session-id'];
  if (typeof sessionId !== 'string') {
    if (request.method !== 'POST')
      return sendJsonRpcError(
        response,
        400,
        'Bad request: no MCP session id; start with an initialize POST.',
      );
    return shared.openSession(request, response, { records, body, initialize: initializeParams(body) });
  }
  const record = await records.touch(sessionId, limits.idleTimeoutMs);
  if (!record) {
    await sessions.drop(sessionId);
    return sendJsonRpcError(response, 404, SESSION_GONE);
  }
  if (shared.caller !== undefined && recordedCaller(record.initialize) !== shared.caller)
    return sendJsonRpcError(
      response,
      403,
      'Forbidden: this MCP session was opened by another caller; initialize a session of your own.',
    );
  let entry = sessions.get(sessionId);
  if (entry?.shared) await entry.shared.catchUp(entry.connection.session, record.revealedTools);
  else if (!entry) {
    if (!shared.rebuilding.has(sessionId) && !(await sessions.makeRoom()))
      return sendJsonRpcError(
        response,
        503,
        `Too many MCP sessions on this replica: all ${limits.maxSessions} are busy. Send the request to another replica, or start quiver serve with a larger --max-sessions.`,
      );
    entry = await rebuild(shared, record);
  }
  const stray = entry.shared?.strayAnswers(body) ?? [];
  if (stray.length > 0)
    return sendJsonRpcError(
      response,
      409,
      `This replica sent no request with id ${stray.map((id) => JSON.stringify(id)).join(', ')}: answers to a question Quiver asked (a permission elicitation, sampling) must reach the replica that asked it. Route ${MCP_PATH} by the Mcp-Session-Id header while a call waits for an answer (see docs/deploy.md).`,
    );
  // Gone for every replica before the client hears that it is gone.
  if (request.method === 'DELETE') await records.delete(sessionId);
  const held = entry;
  return sessions.track(held, response, () => held.handle(request, response, body));
}

/** Where a shared record keeps who opened the session: in the recorded initialize's `_meta`. */
const CALLER_META_KEY = 'quiver/caller';

/** The initialize params to record, naming the caller who opened the session. */
export function withRecordedCaller(
  initialize: Record<string, unknown> | undefined,
  subject: string,
): Record<string, unknown> {
  const params = initialize ?? {};
  const meta = (params._meta as Record<string, unknown> | undefined) ?? {};
  return { ...params, _meta: { ...meta, [CALLER_META_KEY]: subject } };
}

function recordedCaller(initialize: Record<string, unknown>): unknown {
  return (initialize._meta as Record<string, unknown> | undefined)?.[CALLER_META_KEY];
}

async function rebuild(shared: SharedRequest, record: SharedSessionRecord): Promise<HttpSession> {
  const { sessions, log, rebuilding: pending } = shared;
  const under = pending.get(record.id);
  if (under) return under;
  const started = (async () => {
    const connection = shared.reopen(record.quiverSessionId);
    const state = new SharedSessionState(shared.records, log);
    state.id = record.id;
    state.follow(connection.session);
    try {
      const handle = await rebuildSession({
        record,
        connection,
        state,
        onClosed: (sessionId) => void sessions.drop(sessionId),
      });
      log(`took over MCP session ${record.id} from its shared record`);
      return sessions.add(record.id, { handle, connection, shared: state });
    } catch (error) {
      await connection.close();
      throw error;
    }
  })();
  pending.set(record.id, started);
  try {
    return await started;
  } finally {
    pending.delete(record.id);
  }
}

/** Deletes the records of sessions no replica has seen within the idle timeout. */
export function sweepSharedRecords(
  records: () => SharedSessionRecords | undefined,
  limits: SessionLimits,
  log: (message: string) => void,
): NodeJS.Timeout {
  const every = Math.min(Math.max(limits.idleTimeoutMs / 4, 50), 60_000);
  const sweeper = setInterval(() => {
    records()
      ?.deleteIdle(limits.idleTimeoutMs)
      .catch((error: unknown) => log(`deleting idle shared MCP sessions failed: ${errorMessage(error)}`));
  }, every);
  sweeper.unref();
  return sweeper;
}
