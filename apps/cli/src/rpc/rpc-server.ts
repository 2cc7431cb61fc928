import type { ExternalToolDefinition, ProviderFormat, Session, SessionOptions } from '@quiver/runtime';
import {
  errorMessage,
  isQuiverError,
  type PermissionResolver,
  type QuiverEvent,
  renderPermissionQuestion,
} from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { type CancellationToken, type MessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { ConsoleHub } from '../console/console-hub.js';
import { ConsolePermissionResolver } from '../console/console-resolver.js';
import { VERSION } from '../global-options.js';
import { onSessionRelayEvents } from '../session-relay-events.js';
import { clientHelperTools, helperNameClashes } from './client-helper-tools.js';
import { clientExecutedTools, type RunningClientCalls, reportClientProgress } from './client-tools.js';
import {
  externalToolProgress,
  initializeParams,
  permissionReply,
  RPC_ERRORS,
  RPC_PROTOCOL_VERSION,
  sessionAbortParams,
  sessionCheckParams,
  sessionCreateParams,
  sessionExecuteParams,
  sessionExplainParams,
  sessionListParams,
  sessionLogParams,
  sessionRef,
  sessionRenderParams,
  sessionResumeParams,
  sessionUpdateParams,
} from './protocol.js';
import { rpcClientRelay } from './rpc-client-relay.js';

interface OpenSession {
  session: Session;
  unsubscribe: () => void;
  /** Executions under way, by turn, so that session.abort can end them. */
  running: Set<{ turn: number; controller: AbortController }>;
  /** The highest turn executed: an execute without `turn` takes the next one. */
  lastTurn: number;
  /** The helper tools the client declared: kept when session.update replaces external tools. */
  helperTools: ExternalToolDefinition[];
}

interface ClientCapabilities {
  permissions: boolean;
  elicitation: boolean;
  sampling: boolean;
}

/**
 * Serves Quiver's sessions over one JSON-RPC connection: the client creates and resumes
 * sessions with per-session options and external tools, renders definitions, executes the
 * model's calls and receives every lifecycle event as a `session.event` notification. External
 * tools and (when the client can answer them) permission asks go back to the client as requests.
 */
export function serveRpc(
  quiver: Quiver,
  connection: MessageConnection,
  personConsole?: ConsoleHub,
): { closed: Promise<void> } {
  const sessions = new Map<string, OpenSession>();
  const runningClientCalls: RunningClientCalls = new Map();
  let capabilities: ClientCapabilities | undefined;
  // Every process sharing PostgreSQL logs there; else this host's SQLite file.
  const eventLog = () => quiver.host.options.sharedStorage?.eventLog ?? quiver.host.eventLog;

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
      if (method !== 'initialize' && capabilities === undefined)
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
    capabilities = {
      permissions: params.capabilities?.permissions === true,
      elicitation: params.capabilities?.elicitation === true,
      sampling: params.capabilities?.sampling === true,
    };
    return {
      protocolVersion: RPC_PROTOCOL_VERSION,
      server: { name: 'quiver' as const, version: VERSION },
      defaultPersonality: quiver.defaultPersonality,
      workspace: quiver.host.workspace,
      trust: {
        state: quiver.trust.state,
        ...(quiver.trustNotice === undefined
          ? {}
          : {
              notice: quiver.trustNotice,
              fix: 'Run `quiver trust` in the workspace (a person reviews and trusts it), or start `quiver --trust-project rpc` to trust it as found for that process.',
            }),
      },
      readiness: 'session.ready' as const,
    };
  });

  /** Whether the log knows a session: it has events, calls, or a row of its own. */
  const logged = async (sessionId: string): Promise<boolean> => {
    const log = eventLog();
    if ((await log.sessionCalls(sessionId)).length > 0) return true;
    if ((await log.sessionEvents(sessionId)).length > 0) return true;
    return (await log.recentSessions(10_000)).some((summary) => summary.id === sessionId);
  };

  const open = async (
    params: z.infer<typeof sessionResumeParams> | z.infer<typeof sessionCreateParams>,
    how: 'create' | 'resume',
  ) => {
    if (params.sessionId !== undefined && sessions.has(params.sessionId))
      throw new ResponseError(
        RPC_ERRORS.sessionExists,
        `Session "${params.sessionId}" is already open on this connection.`,
      );
    if (params.sessionId !== undefined) {
      // A damaged or unreachable log cannot say whether the id is taken: a new session still
      // starts (its log writes say once that they cannot record); resuming needs the log.
      const known = await logged(params.sessionId).catch((error: unknown) => {
        if (how === 'create' && isStorageFault(error)) return false;
        throw error;
      });
      if (how === 'resume' && !known)
        throw new ResponseError(
          RPC_ERRORS.sessionNotFound,
          `No session "${params.sessionId}" in the session log, so there is nothing to resume. Start it with session.create (it may take this sessionId); session.list lists the sessions the log knows.`,
        );
      if (how === 'create' && known)
        throw new ResponseError(
          RPC_ERRORS.sessionExists,
          `Session "${params.sessionId}" already exists in the session log. Continue it with session.resume, or create a session with another id.`,
        );
    }
    const can = capabilities as ClientCapabilities;
    const { externalTools, helperTools: declaredHelpers, ...options } = params;
    const sessionId = params.sessionId ?? crypto.randomUUID();
    const personality = options.personality ?? quiver.defaultPersonality;
    const helperTools = clientHelperTools(declaredHelpers, quiver, connection, sessionId);
    const clash = helperNameClashes(externalTools, helperTools);
    if (clash !== undefined) throw new ResponseError(-32602, clash);
    const session = quiver.createSession({
      ...(options as SessionOptions),
      sessionId,
      externalTools: [
        ...clientExecutedTools(externalTools ?? [], connection, sessionId, runningClientCalls),
        ...helperTools,
      ],
      ...(can.permissions
        ? { permissionResolver: permissionsOverRpc(connection, sessionId) }
        : personConsole
          ? {
              permissionResolver: new ConsolePermissionResolver({
                hub: personConsole,
                sessionId: () => sessionId,
              }),
            }
          : {}),
      clientRelay: rpcClientRelay(connection, sessionId, can),
    });
    const forward = (event: QuiverEvent) => {
      void connection.sendNotification('session.event', { sessionId, event }).catch(() => {});
    };
    const unsubscribeSession = session.events.subscribe(forward);
    const unsubscribeRelay = onSessionRelayEvents(quiver.host.events, sessionId, forward);
    const unwatch = personConsole?.watchSession(session, {
      transport: 'rpc',
      personality,
      agent: session.agent.kind,
      trust: quiver.trust.state,
    });
    const unsubscribe = () => {
      unsubscribeSession();
      unsubscribeRelay();
      unwatch?.();
    };
    const entry: OpenSession = { session, unsubscribe, running: new Set(), lastTurn: 0, helperTools };
    sessions.set(sessionId, entry);
    try {
      const clientTools = [...(externalTools ?? []), ...helperTools].map((tool) => tool.name);
      await refuseEmptyPool(session, personality, new Set(clientTools));
      // Opening the executor reads the session's log: calls a killed process left are marked interrupted.
      await session.execute([]);
    } catch (error) {
      await closeSession(sessions, sessionId).catch(() => {});
      throw error;
    }
    // After the answer is on its way: the tools, MCP servers included, are assembled.
    setImmediate(() => void announceReady(connection, session));
    return { sessionId, interruptedCalls: [...session.interruptedCalls], personality };
  };

  /** A session whose personality yields no tools of Quiver's is an error, never a silent empty list. */
  const refuseEmptyPool = async (session: Session, personality: string, external: ReadonlySet<string>) => {
    const externalCount = external.size;
    const ownTools = () =>
      [...session.pool().executables.keys()].filter((name) => !external.has(name)).length;
    if (ownTools() > 0) return;
    await session.ready();
    if (ownTools() > 0) return;
    if (quiver.trust.state !== 'trusted')
      throw new ResponseError(
        RPC_ERRORS.noTools,
        `Personality "${personality}" offers no tools: the project configuration is not trusted, so its plugins and MCP servers were not started.\n${quiver.trustNotice ?? ''}`,
        {
          code: 'personality_untrusted',
          fix: 'Run `quiver trust` in the workspace (a person reviews and trusts it), or start `quiver --trust-project rpc`.',
        },
      );
    if (externalCount > 0) return;
    const problems = session
      .pool()
      .diagnostics.filter((diagnostic) => diagnostic.level !== 'info')
      .map((diagnostic) => `\n- ${diagnostic.message}`)
      .join('');
    throw new ResponseError(
      RPC_ERRORS.noTools,
      `Personality "${personality}" offers no tools, and the session has no external tools: every model call would see an empty list.${problems}`,
      {
        code: 'personality_empty',
        fix: `Enable plugins or MCP servers in personality "${personality}" (\`quiver personality check\` shows what it resolves to), pass externalTools, or name another personality.`,
      },
    );
  };
  handle('session.create', sessionCreateParams, (params) => open(params, 'create'));
  handle('session.resume', sessionResumeParams, (params) => open(params, 'resume'));

  handle('session.update', sessionUpdateParams, ({ sessionId, externalTools, ...patch }) => {
    const { session, helperTools } = entryOf(sessionId);
    const clash = helperNameClashes(externalTools, helperTools);
    if (clash !== undefined) throw new ResponseError(-32602, clash);
    session.updateOptions({
      ...(patch as Partial<SessionOptions>),
      ...(externalTools
        ? {
            externalTools: [
              ...clientExecutedTools(externalTools, connection, sessionId, runningClientCalls),
              ...helperTools,
            ],
          }
        : {}),
    });
    return {};
  });

  handle('session.render', sessionRenderParams, ({ sessionId, format = 'anthropic', includeDeferred }) => {
    const session = opened(sessionId);
    const rendered = session.render(format as ProviderFormat, includeDeferred ? { includeDeferred } : {});
    return { format, tools: rendered.tools, nameMap: rendered.nameMap, signature: session.pool().signature };
  });

  handle(
    'session.execute',
    sessionExecuteParams,
    async ({ sessionId, calls, turn: given, dryRun, approvals }, token) => {
      const entry = entryOf(sessionId);
      const turn = given ?? entry.lastTurn + 1;
      entry.lastTurn = Math.max(entry.lastTurn, turn);
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
          ...(approvals ? { approvals } : {}),
        });
        return { results };
      } finally {
        cancelled.dispose();
        entry.running.delete(running);
      }
    },
  );

  handle('session.check', sessionCheckParams, async ({ sessionId, calls }) => {
    const checks = await opened(sessionId).check(calls.map((call) => ({ ...call, args: call.args ?? {} })));
    return {
      checks: checks.map((check, index) =>
        check.behavior !== 'ask'
          ? check
          : {
              ...check,
              question: withoutUndefined(
                renderPermissionQuestion({
                  callId: check.callId ?? '',
                  toolName: check.toolName,
                  args: calls[index]?.args ?? {},
                  decision: {
                    behavior: 'ask',
                    reason: check.reason,
                    ...(check.suggestedRule ? { suggestedRule: check.suggestedRule } : {}),
                    ...(check.subjects ? { subjects: check.subjects } : {}),
                  },
                }),
              ),
            },
      ),
    };
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

  handle('session.list', sessionListParams, async ({ limit = 20 }) => {
    const summaries = await eventLog().recentSessions(limit);
    return {
      sessions: summaries.map(({ lostEvents: _lost, ...summary }) => ({
        ...withoutUndefined(summary),
        open: sessions.has(summary.id),
      })),
    };
  });

  handle('session.log', sessionLogParams, async ({ sessionId, events }) => {
    if (!sessions.has(sessionId) && !(await logged(sessionId)))
      throw new ResponseError(
        RPC_ERRORS.sessionNotFound,
        `No session "${sessionId}" in the session log. session.list lists the sessions it knows.`,
      );
    const calls = await eventLog().sessionCalls(sessionId);
    return {
      sessionId,
      calls: calls.map(({ sessionId: _session, structured: _structured, ...call }) => withoutUndefined(call)),
      ...(events ? { events: await eventLog().sessionEvents(sessionId) } : {}),
    };
  });

  connection.onNotification('external_tool.progress', (raw: unknown) => {
    const parsed = externalToolProgress.safeParse(raw);
    if (parsed.success) reportClientProgress(runningClientCalls, parsed.data);
  });

  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const closeAll = async () => {
    const open = [...sessions.keys()];
    for (const sessionId of open) await closeSession(sessions, sessionId).catch(() => {});
    return open.length;
  };
  handle('shutdown', z.strictObject({}), async () => {
    const closedSessions = await closeAll();
    // Answer first; the process ends once the answer is written.
    setImmediate(finish);
    return { closedSessions };
  });
  connection.onClose(async () => {
    await closeAll();
    finish();
  });
  connection.listen();
  return { closed };
}

/** `session.ready`: once the personality's MCP servers connected or failed, the pool as it stands. */
async function announceReady(connection: MessageConnection, session: Session): Promise<void> {
  try {
    await session.ready();
    const pool = session.pool();
    await connection.sendNotification('session.ready', {
      sessionId: session.id,
      signature: pool.signature,
      tools: [...pool.executables.keys()],
      diagnostics: pool.diagnostics.map((diagnostic) => withoutUndefined({ ...diagnostic })),
    });
  } catch {
    // The session closed, or the connection did, before its tools were ready.
  }
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
          reason: `the client could not answer: ${errorMessage(error)}`,
        };
      }
    },
  };
}

/** A store that is damaged or cannot be reached (named in the error, with its fix). */
function isStorageFault(error: unknown): boolean {
  return isQuiverError(error) && (error.code === 'storage_damaged' || error.code === 'storage_unavailable');
}

function asResponseError(error: unknown): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (isQuiverError(error))
    return new ResponseError(RPC_ERRORS.quiver, error.message, {
      code: error.code,
      ...(error.fix ? { fix: error.fix } : {}),
    });
  return new ResponseError(RPC_ERRORS.quiver, errorMessage(error));
}

/** JSON has no undefined: an "always" answer that covers this call only has no rule to name. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
