import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  Client,
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
} from '@modelcontextprotocol/client';
import type {
  ClientRelayHandle,
  ClientRelayKind,
  QuiverEventOf,
  RelayedRequest,
  ToolContext,
} from '@quiver/types';
import { errorMessage } from '@quiver/types';
import { OutstandingClientRequests } from './call-timer.js';
import { cleanDefinitionText } from './clean-text.js';
import { clientSdk } from './client-sdk.js';
import { SAMPLING_CONTEXTS, type SamplingContext } from './config.js';

export type ClientRelayEvent =
  | QuiverEventOf<'client_relay.requested'>
  | QuiverEventOf<'client_relay.completed'>;

export interface ServerClientRelayOptions {
  server: string;
  /** What the server's configuration allows it to ask (`mcpServers.<name>.allow`). */
  allow: readonly ClientRelayKind[];
  /** The most context its sampling requests may include (`mcpServers.<name>.samplingContext`); default `none`. */
  samplingContext?: SamplingContext;
  /** Absolute paths of the workspace roots, the answer to `roots/list`. */
  roots: readonly string[];
  publish: (event: ClientRelayEvent) => void;
}

/**
 * Who a bridged server's question goes to: a running tool call's context, or the like for a
 * request that is no tool call (a relayed prompts/get).
 */
export type RelayAsker = Pick<ToolContext, 'callId' | 'sessionId' | 'signal'> & {
  capabilities: { client_relay?: ClientRelayHandle | undefined };
};

interface RunningCall {
  ctx: RelayAsker;
  toolName: string;
}

interface RelayTarget {
  call: RunningCall;
  handle: ClientRelayHandle;
  request: (params: Record<string, unknown>) => RelayedRequest;
}

type Completion = Pick<QuiverEventOf<'client_relay.completed'>, 'outcome' | 'reason'>;

/** Session id of relay events that no running call can be tied to. */
const HOST_EVENT_SESSION = '*';
const MAX_EVENT_MESSAGE_CHARS = 500;

/** True when tools of a server with this `allow` list need the host's client relay. */
export function needsClientRelay(allow: readonly ClientRelayKind[]): boolean {
  return allow.includes('elicitation') || allow.includes('sampling');
}

/**
 * The MCP client features the bridge offers one server: only those its configuration allows
 * are declared and answered. A question goes to whoever started the session of the call that
 * is running on the server (MCP does not say which call a question belongs to); with calls of
 * several sessions running, or none, nobody can be told apart and the request is refused.
 */
export class ServerClientRelay {
  private readonly running = new Map<string, RunningCall>();
  /** Questions and sampling requests not answered yet; the server's call timers wait meanwhile. */
  readonly outstanding = new OutstandingClientRequests();

  constructor(private readonly options: ServerClientRelayOptions) {}

  private capabilities(): ClientCapabilities {
    const { allow } = this.options;
    return {
      ...(allow.includes('elicitation') ? { elicitation: { form: { applyDefaults: true } } } : {}),
      ...(allow.includes('sampling') ? { sampling: {} } : {}),
      ...(allow.includes('roots') ? { roots: {} } : {}),
    };
  }

  /** Declares and answers the allowed features; call before connecting. */
  install(client: Client): void {
    const { allow } = this.options;
    client.registerCapabilities(this.capabilities());
    if (allow.includes('elicitation'))
      client.setRequestHandler('elicitation/create', (request, ctx) =>
        this.whileOutstanding(() =>
          this.elicit(request.params as Record<string, unknown>, ctx.mcpReq.signal),
        ),
      );
    if (allow.includes('sampling'))
      client.setRequestHandler('sampling/createMessage', (request, ctx) =>
        this.whileOutstanding(() =>
          this.sample(request.params as Record<string, unknown>, ctx.mcpReq.signal),
        ),
      );
    if (allow.includes('roots')) client.setRequestHandler('roots/list', () => this.listRoots());
  }

  /**
   * Runs a call of the server (a tool call, or a request such as prompts/get: `toolName` names
   * it), known as running (so questions can reach its session) until it settles.
   */
  during<T>(ctx: RelayAsker, toolName: string, run: () => Promise<T>): Promise<T> {
    const callId = ctx.callId;
    this.running.set(callId, { ctx, toolName });
    // Without an async frame of its own: this wraps every bridged call.
    let running: Promise<T>;
    try {
      running = run();
    } catch (error) {
      this.running.delete(callId);
      return Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.running.delete(callId);
        return value;
      },
      (error: unknown) => {
        this.running.delete(callId);
        throw error;
      },
    );
  }

  private async whileOutstanding<T>(run: () => Promise<T>): Promise<T> {
    const end = this.outstanding.begin();
    try {
      return await run();
    } finally {
      end();
    }
  }

  private async elicit(params: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult> {
    const message = typeof params.message === 'string' ? params.message : undefined;
    const target = this.begin('elicitation', message);
    const outcome = await this.settle(target, 'elicitation', () =>
      target.handle.elicit(target.request(params), AbortSignal.any([signal, target.call.ctx.signal])),
    );
    if (outcome.action === 'refused') this.refuse(target.call, 'elicitation', outcome.reason);
    this.complete(target.call, 'elicitation', { outcome: outcome.action });
    return outcome;
  }

  private async sample(params: Record<string, unknown>, signal: AbortSignal): Promise<CreateMessageResult> {
    const target = this.begin('sampling', undefined);
    const outcome = await this.settle(target, 'sampling', () =>
      target.handle.sample(
        target.request(this.withAllowedContext(params)),
        AbortSignal.any([signal, target.call.ctx.signal]),
      ),
    );
    if (outcome.action === 'refused') this.refuse(target.call, 'sampling', outcome.reason);
    this.complete(target.call, 'sampling', { outcome: 'completed' });
    return outcome.result as CreateMessageResult;
  }

  /**
   * The request with `includeContext` lowered to what the configuration allows: the client's
   * context would go back to the server inside the completion. An unknown value counts as the most.
   */
  private withAllowedContext(params: Record<string, unknown>): Record<string, unknown> {
    if (params.includeContext === undefined) return params;
    const allowed = SAMPLING_CONTEXTS.indexOf(this.options.samplingContext ?? 'none');
    const asked = SAMPLING_CONTEXTS.indexOf(params.includeContext as SamplingContext);
    if (asked !== -1 && asked <= allowed) return params;
    return { ...params, includeContext: SAMPLING_CONTEXTS[allowed] };
  }

  /** Runs the relay; a failure (the asker went away, the call was aborted) is published, then rethrown. */
  private async settle<T>(target: RelayTarget, kind: ClientRelayKind, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const reason = errorMessage(error);
      this.complete(target.call, kind, { outcome: 'failed', reason });
      throw error;
    }
  }

  private listRoots(): { roots: Array<{ uri: string; name: string }> } {
    const call = this.latestCall();
    this.options.publish({
      ...this.eventBase(call),
      type: 'client_relay.completed',
      mcpServer: this.options.server,
      kind: 'roots',
      outcome: 'completed',
    });
    return {
      roots: this.options.roots.map((root) => ({
        uri: pathToFileURL(root).href,
        name: path.basename(root) || root,
      })),
    };
  }

  /** The call the request is for, with the `requested` event published; throws a refusal. */
  private begin(kind: 'elicitation' | 'sampling', message: string | undefined): RelayTarget {
    const { server } = this.options;
    const sessions = new Set([...this.running.values()].map((call) => call.ctx.sessionId));
    const call = this.latestCall();
    this.options.publish({
      ...this.eventBase(call),
      type: 'client_relay.requested',
      mcpServer: server,
      kind,
      ...(message === undefined
        ? {}
        : { message: cleanDefinitionText(message, MAX_EVENT_MESSAGE_CHARS).text }),
    });
    if (call === undefined)
      this.refuse(
        call,
        kind,
        `no tool of MCP server "${server}" was running, so Quiver could not tell whom to ask`,
      );
    if (sessions.size > 1)
      this.refuse(
        call,
        kind,
        `tools of MCP server "${server}" were running for several sessions at once, so Quiver could not tell whom to ask`,
      );
    const handle = call.ctx.capabilities.client_relay;
    if (handle === undefined) this.refuse(call, kind, 'the host gives MCP tools no client relay');
    return {
      call,
      handle,
      request: (params) => ({ server, callId: call.ctx.callId, toolName: call.toolName, params }),
    };
  }

  private refuse(call: RunningCall | undefined, kind: ClientRelayKind, reason: string): never {
    this.complete(call, kind, { outcome: 'refused', reason });
    const { ProtocolError, ProtocolErrorCode } = clientSdk();
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Quiver refused the ${kind} request of MCP server "${this.options.server}": ${reason}`,
    );
  }

  private complete(call: RunningCall | undefined, kind: ClientRelayKind, completion: Completion): void {
    this.options.publish({
      ...this.eventBase(call),
      type: 'client_relay.completed',
      mcpServer: this.options.server,
      kind,
      ...completion,
    });
  }

  private latestCall(): RunningCall | undefined {
    return [...this.running.values()].at(-1);
  }

  private eventBase(call: RunningCall | undefined) {
    return {
      id: randomUUID(),
      sessionId: call?.ctx.sessionId ?? HOST_EVENT_SESSION,
      timestamp: Date.now(),
      ...(call === undefined ? {} : { callId: call.ctx.callId, toolName: call.toolName }),
    };
  }
}
