import type { ProviderFormat, Session, SessionOptions } from '@quiver/runtime';
import { isQuiverError, type PermissionResolver, renderPermissionQuestion } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { type CancellationToken, type MessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { VERSION } from '../program.js';
import { clientExecutedTools } from './client-tools.js';
import {
  initializeParams,
  permissionReply,
  RPC_ERRORS,
  RPC_PROTOCOL_VERSION,
  sessionAbortParams,
  sessionCreateParams,
  sessionExecuteParams,
  sessionExplainParams,
  sessionRef,
  sessionRenderParams,
  sessionResumeParams,
  sessionUpdateParams,
} from './protocol.js';

interface OpenSession {
  session: Session;
  unsubscribe: () => void;
  /** Executions under way, by turn, so that session.abort can end them. */
  running: Set<{ turn: number; controller: AbortController }>;
}

/**
 * Serves Quiver's sessions over one JSON-RPC connection: the client creates and resumes
 * sessions with per-session options and external tools, renders definitions, executes the
 * model's calls and receives every lifecycle event as a `session.event` notification. External
 * tools and (when the client can answer them) permission asks go back to the client as requests.
 */
export function serveRpc(quiver: Quiver, connection: MessageConnection): { closed: Promise<void> } {
  const sessions = new Map<string, OpenSession>();
  let answersPermissions: boolean | undefined;

  const entryOf = (sessionId: string): OpenSession => {
    const entry = sessions.get(sessionId);
    if (!entry)
      throw new ResponseError(
        RPC_ERRORS.sessionNotFound,
        `No open session "${sessionId}". Create it with session.create, or session.resume it after a restart.`,
      );
    return entry;
  };
  const opened = (sessionId: string): Session => entryOf(sessionId).session;

  const handle = <S extends z.ZodType, R>(
    method: string,
    schema: S,
    work: (params: z.infer<S>, token: CancellationToken) => R | Promise<R>,
  ) =>
    connection.onRequest(method, async (raw: unknown, token: CancellationToken) => {
      if (method !== 'initialize' && answersPermissions === undefined)
        throw new ResponseError(RPC_ERRORS.notInitialized, `Send "initialize" before "${method}".`);
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success)
        throw new ResponseError(
          -32602,
          `Invalid params for ${method}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`).join('; ')}. See docs/rpc.md for its shape.`,
        );
      try {
        return await work(parsed.data, token);
      } catch (error) {
        throw asResponseError(error);
      }
    });

  handle('initialize', initializeParams, (params) => {
    if (params.protocolVersion !== RPC_PROTOCOL_VERSION)
      throw new ResponseError(
        -32602,
        `This quiver speaks RPC protocol version ${RPC_PROTOCOL_VERSION}; the client asked for ${params.protocolVersion}. Update the client or quiver so that they match.`,
      );
    answersPermissions = params.capabilities?.permissions === true;
    return {
      protocolVersion: RPC_PROTOCOL_VERSION,
      server: { name: 'quiver' as const, version: VERSION },
      defaultPersonality: quiver.defaultPersonality,
      workspace: quiver.host.workspace,
    };
  });

  const open = async (params: z.infer<typeof sessionResumeParams> | z.infer<typeof sessionCreateParams>) => {
    if (params.sessionId !== undefined && sessions.has(params.sessionId))
      throw new ResponseError(
        RPC_ERRORS.sessionExists,
        `Session "${params.sessionId}" is already open on this connection.`,
      );
    const { externalTools, ...options } = params;
    const sessionId = params.sessionId ?? crypto.randomUUID();
    const session = quiver.createSession({
      ...(options as SessionOptions),
      sessionId,
      externalTools: clientExecutedTools(externalTools ?? [], connection, sessionId),
      ...(answersPermissions ? { permissionResolver: permissionsOverRpc(connection, sessionId) } : {}),
    });
    const unsubscribe = session.events.subscribe((event) => {
      void connection.sendNotification('session.event', { sessionId, event }).catch(() => {});
    });
    sessions.set(sessionId, { session, unsubscribe, running: new Set() });
    // Opening the executor reads the session's log: calls a killed process left are marked interrupted.
    await session.execute([]);
    return { sessionId, interruptedCalls: [...session.interruptedCalls] };
  };
  handle('session.create', sessionCreateParams, open);
  handle('session.resume', sessionResumeParams, open);

  handle('session.update', sessionUpdateParams, ({ sessionId, externalTools, ...patch }) => {
    const session = opened(sessionId);
    session.updateOptions({
      ...(patch as Partial<SessionOptions>),
      ...(externalTools ? { externalTools: clientExecutedTools(externalTools, connection, sessionId) } : {}),
    });
    return {};
  });

  handle('session.render', sessionRenderParams, ({ sessionId, format = 'anthropic', includeDeferred }) => {
    const session = opened(sessionId);
    const rendered = session.render(format as ProviderFormat, includeDeferred ? { includeDeferred } : {});
    return { format, tools: rendered.tools, nameMap: rendered.nameMap, signature: session.pool().signature };
  });

  handle('session.execute', sessionExecuteParams, async ({ sessionId, calls, turn = 0, dryRun }, token) => {
    const entry = entryOf(sessionId);
    const running = { turn, controller: new AbortController() };
    entry.running.add(running);
    const cancelled = token.onCancellationRequested(() =>
      running.controller.abort(new Error('cancelled by the client')),
    );
    try {
      const modelCalls = calls.map((call) => ({ ...call, args: call.args ?? {} }));
      const results = await entry.session.execute(modelCalls, {
        signal: running.controller.signal,
        turn,
        ...(dryRun ? { dryRun } : {}),
      });
      return { results };
    } finally {
      cancelled.dispose();
      entry.running.delete(running);
    }
  });

  handle('session.abort', sessionAbortParams, ({ sessionId, reason, turn }) => {
    const entry = entryOf(sessionId);
    let aborted = 0;
    for (const running of entry.running) {
      if (turn !== undefined && running.turn !== turn) continue;
      running.controller.abort(new Error(reason ?? 'aborted by the client'));
      aborted += 1;
    }
    return { aborted };
  });

  handle('session.explain', sessionExplainParams, ({ sessionId, tool }) => ({
    text: opened(sessionId).explain(tool),
  }));

  handle('session.close', sessionRef, async ({ sessionId }) => {
    opened(sessionId);
    await closeSession(sessions, sessionId);
    return {};
  });

  const closed = new Promise<void>((resolve) => {
    connection.onClose(async () => {
      for (const sessionId of [...sessions.keys()]) await closeSession(sessions, sessionId).catch(() => {});
      resolve();
    });
  });
  connection.listen();
  return { closed };
}

async function closeSession(sessions: Map<string, OpenSession>, sessionId: string): Promise<void> {
  const entry = sessions.get(sessionId);
  if (!entry) return;
  sessions.delete(sessionId);
  entry.unsubscribe();
  await entry.session.close();
}

/** Asks go to the client; a reply that is not an answer denies, and says why. */
function permissionsOverRpc(connection: MessageConnection, sessionId: string): PermissionResolver {
  return {
    async resolve(prompt) {
      try {
        const reply = permissionReply.safeParse(
          await connection.sendRequest('permission.requested', {
            sessionId,
            ...prompt,
            question: withoutUndefined(renderPermissionQuestion(prompt)),
          }),
        );
        if (reply.success) return reply.data;
        return {
          behavior: 'deny',
          reason: 'the client answered the permission request with something that is not an answer',
        };
      } catch (error) {
        return {
          behavior: 'deny',
          reason: `the client could not answer: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    },
  };
}

function asResponseError(error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (isQuiverError(error))
    return new ResponseError(RPC_ERRORS.quiver, error.message, {
      code: error.code,
      ...(error.fix ? { fix: error.fix } : {}),
    });
  return new ResponseError(RPC_ERRORS.quiver, error instanceof Error ? error.message : String(error));
}

/** JSON has no undefined: an "always" answer that covers this call only has no rule to name. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
