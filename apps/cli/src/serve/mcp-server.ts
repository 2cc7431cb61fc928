import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  type CallToolResult,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequiredResult,
  MissingRequiredClientCapabilityError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Session, SessionOptions } from '@quiver/runtime';
import { errorMessage, fail, subscribeToTypes, type ToolResult, visibleText } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import type { ConsoleHub } from '../console/console-hub.js';
import { ConsolePermissionResolver } from '../console/console-resolver.js';
import { warmCallPath } from './call-path-warmup.js';
import { type CallRequest, PlainCallRequest, withRound } from './call-request.js';
import { resolveCallTarget } from './call-target.js';
import { relayMcpCatalog } from './catalog-relay.js';
import { type RequestChannel, ServeClientRelay } from './client-relay.js';
import { toCallToolResult } from './content.js';
import { DefinitionReview } from './definition-review.js';
import { ElicitationPermissionResolver, supportsFormElicitation } from './permission-elicitation.js';
import { type PermissionRound, type PermissionRounds, servePermissionRounds } from './permission-rounds.js';
import { ProgressForwarding } from './progress-forwarding.js';
import { declareRelayedCapabilities } from './relayed-capabilities.js';
import { relayResourceSubscriptions } from './resource-subscription-relay.js';
import { ServerLogForwarding } from './server-log-forwarding.js';
import { dispatchToolCall, registerTaskRequests, TaskServer } from './task-calls.js';
import { serveTasks, TASKS_EXTENSION } from './tasks.js';
import { ToolListingCache } from './tool-listing.js';
import { requestedLogLevel, ToolLogForwarding } from './tool-log-forwarding.js';

/**
 * The ids of the calls serve makes: a random prefix per process and a counter, unique as a random
 * UUID per call is (another process has another prefix) at a fraction of its cost. The session
 * log's `calls` table is keyed by it: ids that follow each other land on the same index page,
 * where a random one per call touched a page of its own (~36% of the log's bytes per call).
 */
const CALL_ID_PREFIX = `mcp-${randomUUID()}-`;
let callCount = 0;

function newCallId(): string {
  callCount += 1;
  return CALL_ID_PREFIX + callCount.toString(36);
}

// Read at call time, not import time, and without importing program.ts (which imports us).
const serverVersion = () =>
  (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export interface ServeConnectionOptions {
  quiver: Quiver;
  session: SessionOptions;
  /** Where diagnostics go; never stdout, which may carry the protocol. */
  log: (message: string) => void;
  /** Permission asks of 2026-07-28 requests, answered in the client's next request (default: the process's). */
  permissionRounds?: PermissionRounds;
  /** The process's console: it shows the session's calls and answers asks the client cannot show. */
  console?: { hub: ConsoleHub; transport: string };
}

/** One MCP connection: its SDK server and the Quiver session behind it, closed together. */
export interface ServeConnection {
  readonly server: Server;
  readonly session: Session;
  /**
   * Declares what the bridged servers offer beyond tools (resource subscriptions, completions),
   * waiting a bounded time for them to connect. Call once, before connecting a transport.
   */
  declareRelayedCapabilities(): Promise<void>;
  /**
   * Opens what the session's first call would open (permission engine, saved grants, the
   * session's log, which then lists the session), and runs the call pipeline once on the
   * session's unseen stand-in tool (`Session.warmCalls`), so that call does not wait for either.
   */
  prepareCalls(): void;
  /**
   * Runs serve's own call path once on nothing (`warmCallPath`); resolves when it is done. Serve
   * over stdio awaits it before reading the client's first message; otherwise it starts after
   * `initialize`.
   */
  warmCallPath(): Promise<void>;
  /** Moves the connection to a reloaded configuration: a new session, then tools/list_changed. */
  switchTo(quiver: Quiver): Promise<void>;
  /**
   * Called whenever the connection announces that its tool list changed (besides
   * tools/list_changed to its own client): a stateless (2026-07-28) request has no client to
   * send it to, so its `subscriptions/listen` streams are told instead.
   */
  onToolsChanged?: () => void;
  close(): Promise<void>;
}

/**
 * Builds the low-level SDK server for one connection. Raw JSON Schema tools need the
 * low-level `Server` (McpServer wants zod shapes); every call runs the session's full lifecycle.
 */
export function createServeConnection(options: ServeConnectionOptions): ServeConnection {
  const { log } = options;
  const rounds = options.permissionRounds ?? servePermissionRounds();
  const server = new TaskServer(
    { name: 'quiver', version: serverVersion() },
    {
      capabilities: { tools: { listChanged: true }, logging: {}, extensions: { [TASKS_EXTENSION]: {} } },
      requestState: { verify: rounds.verify },
    },
  );
  const resolver = new ElicitationPermissionResolver();
  const clientRelay = new ServeClientRelay(() => server.getClientCapabilities());
  /**
   * What a call's (or a relayed prompt's) questions go through: requests to the client within the
   * MCP request on 2025-11-25; on 2026-07-28 the request's round, answered by its retry.
   */
  const requestChannel = (ctx: ServerContext, round: PermissionRound | undefined): RequestChannel => ({
    elicitInput: (params, requestOptions) => ctx.mcpReq.elicitInput(params, requestOptions),
    requestSampling: (params, requestOptions) => ctx.mcpReq.requestSampling(params, requestOptions),
    listRoots: (requestOptions) =>
      server.listRoots(undefined, { ...requestOptions, relatedRequestId: ctx.mcpReq.id }),
    ...(round ? { round } : {}),
  });
  const listing = new ToolListingCache();
  const review = new DefinitionReview({ elicit: (params, opts) => server.elicitInput(params, opts), log });
  const serverLogs = new ServerLogForwarding(server, log);
  let closed = false;
  let elicitation = false;

  const announceToolsChanged = () => {
    if (closed) return;
    connection.onToolsChanged?.();
    server
      .sendToolListChanged()
      .catch((error: unknown) => log(`could not send tools/list_changed: ${errorMessage(error)}`));
  };

  /** The session behind the connection, with what listens to it; replaced when the configuration reloads. */
  const bind = (quiver: Quiver) => {
    const consoleResolver =
      options.console === undefined
        ? undefined
        : new ConsolePermissionResolver({
            hub: options.console.hub,
            client: () => (elicitation ? resolver : undefined),
            sessionId: () => current.session.id,
          });
    const session = quiver.createSession({
      ...options.session,
      clientRelay,
      ...(consoleResolver
        ? { permissionResolver: consoleResolver }
        : elicitation
          ? { permissionResolver: resolver }
          : {}),
    });
    const progress = new ProgressForwarding(session.events);
    const toolLogs = new ToolLogForwarding(session.events, () => serverLogs.level);
    const cleanups: Array<() => void> = [() => progress.close(), () => toolLogs.close()];
    // The first assembly also reports tools_updated; the client's own tools/list caused it.
    let assembled = false;
    cleanups.push(
      session.events.subscribe(() => {
        if (assembled) announceToolsChanged();
        assembled = true;
      }, ['session.tools_updated']),
    );
    // The session reassembles lazily; a registry change (a plugin registering a tool later) is
    // only seen once someone asks for the pool, so ask now and let a changed signature announce it.
    let refreshScheduled = false;
    const reassemble = () => {
      if (closed || current.session !== session) return;
      try {
        session.pool();
      } catch (error) {
        log(`the tools could not be reassembled: ${errorMessage(error)}`);
      }
    };
    // `now`: a stateless request's connection closes with its answer, so it looks before answering.
    const refreshPool = (now = false) => {
      if (now) return reassemble();
      if (refreshScheduled || closed) return;
      refreshScheduled = true;
      setImmediate(() => {
        refreshScheduled = false;
        reassemble();
      });
    };
    cleanups.push(quiver.host.registry.onChange(() => refreshPool()));
    // A server's tools changing or connecting; the registry change usually says it first.
    cleanups.push(subscribeToTypes(quiver.host.events, ['tools.list_changed'], () => refreshPool()));
    cleanups.push(review.watch(quiver), serverLogs.watch(quiver));
    if (options.console) {
      const client = server.getClientVersion();
      cleanups.push(
        options.console.hub.watchSession(session, {
          transport: options.console.transport,
          ...(client ? { client: `${client.name} ${client.version}` } : {}),
          ...(session.options.caller === undefined ? {} : { caller: visibleText(session.options.caller) }),
          personality: session.options.personality ?? quiver.defaultPersonality,
          agent: session.agent.kind,
          trust: quiver.trust.state,
        }),
      );
    }
    return { quiver, session, progress, toolLogs, refreshPool, cleanups };
  };
  let current = bind(options.quiver);
  relayMcpCatalog(
    server,
    () => current,
    log,
    (ctx, prompt, args) => {
      // The round's state names the prompt: an answer counts only for a retry of the same prompt.
      const round = ctx.mcpReq.envelope ? rounds.begin(`prompt ${prompt}`, args, ctx) : undefined;
      const callId = newCallId();
      const end = clientRelay.bind(callId, requestChannel(ctx, round));
      return {
        asker: {
          callId,
          sessionId: current.session.id,
          signal: ctx.mcpReq.signal,
          capabilities: { client_relay: clientRelay },
        },
        inputRequired: async () => round?.inputRequired(ctx),
        end,
      };
    },
  );
  const subscriptions = relayResourceSubscriptions(server, () => current, log);

  server.oninitialized = () => {
    // Without form elicitation the session stays headless: asks become denies naming the rule.
    elicitation = supportsFormElicitation(server.getClientCapabilities());
    // The console's resolver asks the client first whenever it can; it stays in place.
    if (elicitation && !options.console) {
      current.session.updateOptions({ permissionResolver: resolver });
      // A new resolver closes what the warm-up opened for the first call: open it again meanwhile.
      setImmediate(() => {
        try {
          if (!closed) current.session.prepareCalls();
        } catch {
          // The first call opens them itself and reports its own error.
        }
      });
    }
    const client = server.getClientVersion();
    if (client)
      options.console?.hub.describeSession(current.session.id, {
        client: `${client.name} ${client.version}`,
      });
    if (elicitation) review.enable();
    void warmCalls();
  };
  const warmCalls = () =>
    warmCallPath(current.session, {
      target: (name) => void resolveCallTarget(name, {}, listing.get(current.session), current.session),
      dispatch: () =>
        dispatchToolCall(tasks, {
          envelope: undefined,
          taskSupport: undefined,
          owner: '',
          sessionId: current.session.id,
          callId: 'warm-up',
          requestSignal: new AbortController().signal,
          execute: async () => undefined,
          askThroughTask: () => undefined,
          answer: async () =>
            server.projectCallToolResult(toCallToolResult({ ok: true, value: '' }), undefined),
        }),
    });

  server.setRequestHandler('tools/list', () => ({ tools: listing.get(current.session).tools }));
  const tasks = serveTasks();
  registerTaskRequests(server, tasks, () => current.session.options.caller ?? '');

  /**
   * One tools/call: `ctx` is the SDK's request context (undefined on the lean path of a plain
   * call, which has no `_meta`: no progress token, no 2026-07-28 envelope, no task), `request`
   * what the call's questions and notifications go through either way.
   */
  const callTool = async (
    params: {
      name: string;
      arguments?: Record<string, unknown>;
      _meta?: { progressToken?: string | number };
    },
    request: CallRequest,
    ctx: ServerContext | undefined,
  ): Promise<CallToolResult | InputRequiredResult> => {
    // A CreateTaskResult is let through by TaskServer; the SDK's handler type does not know it.
    const { name, arguments: args = {} } = params;
    const envelope = ctx?.mcpReq.envelope;
    // A 2026-07-28 request carries its client's capabilities: adopt them as initialize would.
    const round = ctx && envelope ? rounds.begin(name, args, ctx) : undefined;
    if (round && !elicitation && supportsFormElicitation(server.getClientCapabilities()))
      server.oninitialized?.();
    const { session, progress, refreshPool } = current;
    const target = resolveCallTarget(name, args, listing.get(session), session);
    if (!target.run)
      return { content: [{ type: 'text', text: `[input_invalid] ${target.error}` }], isError: true };
    const callId = newCallId();
    const progressToken = params._meta?.progressToken ?? ctx?.mcpReq._meta?.progressToken;
    const untrack =
      progressToken === undefined
        ? undefined
        : progress.track(callId, (notice) =>
            request
              .notify({ method: 'notifications/progress', params: { progressToken, ...notice } })
              .catch((error: unknown) => log(`could not send progress: ${errorMessage(error)}`)),
          );
    const unbind = resolver.bind(
      callId,
      round?.elicit ?? ((params, requestOptions) => request.channel.elicitInput(params, requestOptions)),
    );
    const unbindRelay = clientRelay.bind(callId, round ? withRound(request.channel, round) : request.channel);
    // A 2026-07-28 request names the level it wants log messages from; without one it gets none.
    const untrackLogs = current.toolLogs.track(
      callId,
      (params) => request.notify({ method: 'notifications/message', params }),
      envelope ? requestedLogLevel(envelope) : undefined,
    );
    /** The MCP answer for the call's tool result, as its revision writes it. */
    const project = (result: ToolResult | undefined) =>
      server.projectCallToolResult(
        toCallToolResult(result ?? fail('execution_failed', `${name} returned no result.`), target),
        undefined,
      );
    let unbindTaskRelay: (() => void) | undefined;
    try {
      // A request without a 2026-07-28 envelope negotiates no task and has no round: it runs in
      // its request (dispatchToolCall's first branch), without the dispatcher's promise turns.
      if (envelope === undefined) {
        const under = request.cancel !== undefined ? { cancel: request.cancel } : { signal: request.signal };
        return project(
          (await session.execute([{ id: callId, name: target.name, args: target.args }], under))[0],
        );
      }
      return (await dispatchToolCall(tasks, {
        envelope,
        taskSupport: target.taskSupport,
        owner: session.options.caller ?? '',
        sessionId: session.id,
        callId,
        requestSignal: request.signal,
        execute: async (signal) => {
          try {
            return (
              await session.execute(
                [{ id: callId, name: target.name, args: target.args }],
                signal !== undefined ? { signal } : { signal: request.signal },
              )
            )[0];
          } finally {
            unbindTaskRelay?.();
          }
        },
        // Once the call is a task, what it asks its caller waits in the task for tasks/update.
        askThroughTask: (ask) => {
          unbindTaskRelay = clientRelay.bind(callId, {
            elicitInput: (params, options) =>
              ask({ method: 'elicitation/create', params }, options?.signal) as Promise<ElicitResult>,
            requestSampling: (params, options) =>
              ask({ method: 'sampling/createMessage', params }, options?.signal),
            listRoots: (options) =>
              ask({ method: 'roots/list', params: {} }, options?.signal) as Promise<{
                roots: Array<{ uri: string; name?: string }>;
              }>,
          });
        },
        answer: async (result) => {
          const question = ctx ? await round?.inputRequired(ctx) : undefined;
          if (question) return question;
          if (round && result && !result.ok && result.code === 'client_capability_missing')
            throw missingCapabilityError(result);
          return project(result);
        },
      })) as CallToolResult;
    } finally {
      if (untrack !== undefined) await untrack();
      untrackLogs();
      unbind();
      unbindRelay();
      // A plain call's connection looks once its answer is written (TaskServer.afterPlainCall).
      if (!request.plain) refreshPool(envelope !== undefined);
    }
  };

  server.setRequestHandler('tools/call', (request, ctx) =>
    callTool(
      request.params,
      {
        signal: ctx.mcpReq.signal,
        notify: (notification) => ctx.mcpReq.notify(notification),
        channel: requestChannel(ctx, undefined),
      },
      ctx,
    ),
  );
  // A plain call (see lean-call.ts) on serve's stdio: the same call, its questions and
  // notifications sent as the SDK's request context sends them on 2025-11-25.
  server.plainCalls = (plain, cancel) =>
    callTool(
      plain.params,
      new PlainCallRequest(server, plain.id, cancel),
      undefined,
    ) as Promise<CallToolResult>;
  // After a plain call's answer was written, not on a turn of its own: a call that changed the
  // pool (tool_search found tools, a plugin invalidated it) announces tools/list_changed now.
  server.afterPlainCall = () => current.refreshPool(true);

  const release = async (bound: typeof current) => {
    for (const cleanup of bound.cleanups.splice(0)) cleanup();
    await bound.session
      .close()
      .catch((error: unknown) => log(`closing the session failed: ${errorMessage(error)}`));
  };

  const connection: ServeConnection = {
    server,
    get session() {
      return current.session;
    },
    declareRelayedCapabilities: () => declareRelayedCapabilities(server, () => current),
    prepareCalls() {
      if (closed) return;
      try {
        current.session.prepareCalls();
      } catch (error) {
        // The first call opens them again and fails with its own error.
        log(`could not prepare the session's calls: ${errorMessage(error)}`);
        return;
      }
      // Once the bridged servers are on their way: the pipeline's first run on its stand-in.
      setImmediate(() => {
        if (!closed) void current.session.warmCalls();
      });
    },
    warmCallPath: () => (closed ? Promise.resolve() : warmCalls()),
    async switchTo(quiver: Quiver) {
      if (closed) return;
      const previous = current;
      current = bind(quiver);
      await subscriptions.move();
      await release(previous);
      announceToolsChanged();
    },
    async close() {
      if (closed) return;
      closed = true;
      review.close();
      await subscriptions.close();
      await release(current);
      await server
        .close()
        .catch((error: unknown) => log(`closing the MCP server failed: ${errorMessage(error)}`));
    },
  };
  return connection;
}

/**
 * A 2026-07-28 call whose tool could not go on without a capability its client did not declare:
 * MCP's MissingRequiredClientCapabilityError (-32021, HTTP 400) naming it. A 2025 session gets the
 * tool's failure as an isError result instead, as it always has.
 */
function missingCapabilityError(result: { error: string; structured?: unknown }): Error {
  const required = (result.structured as { requiredCapabilities?: unknown } | undefined)
    ?.requiredCapabilities;
  const requiredCapabilities =
    required && typeof required === 'object' && !Array.isArray(required)
      ? (required as ClientCapabilities)
      : {};
  return new MissingRequiredClientCapabilityError({ requiredCapabilities }, result.error);
}
