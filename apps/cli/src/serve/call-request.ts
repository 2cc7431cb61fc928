import type {
  CreateMessageRequest,
  ElicitRequestFormParams,
  ElicitResult,
  RequestOptions,
  Server,
  ServerNotification,
} from '@modelcontextprotocol/server';
import type { CallCancelHandle } from '@quiver/runtime';
import type { RequestChannel } from './client-relay.js';
import type { PermissionRound } from './permission-rounds.js';
import type { LeanCancel } from './task-calls.js';

/** Where one tools/call's questions and notifications go: its MCP request's, on either path. */
export interface CallRequest {
  signal: AbortSignal;
  /** A lean call's cancel (its `signal` is then made only when read). */
  cancel?: CallCancelHandle;
  /** A plain call of the lean path: its connection refreshes the pool after the answer is written. */
  plain?: boolean;
  notify(notification: ServerNotification): Promise<void>;
  channel: RequestChannel;
}

/**
 * A plain call's request (lean path): its questions go to the client as the SDK's request context
 * sends them on 2025-11-25, related to the call's request id. One object a call: it is its own
 * channel, and its signal is made only when read. Its methods live on its class: give it on as it
 * is, or through `withRound`, never as a spread copy (which would keep none of them).
 */
export class PlainCallRequest implements CallRequest, RequestChannel {
  readonly plain = true;
  readonly #server: Server;
  readonly #related: { relatedRequestId: string | number };
  readonly cancel: LeanCancel;

  constructor(server: Server, id: string | number, cancel: LeanCancel) {
    this.#server = server;
    this.#related = { relatedRequestId: id };
    this.cancel = cancel;
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  get channel(): RequestChannel {
    return this;
  }

  notify(notification: ServerNotification): Promise<void> {
    return this.#server.notification(notification, this.#related);
  }

  elicitInput(params: ElicitRequestFormParams, options?: RequestOptions): Promise<ElicitResult> {
    return this.#server.elicitInput(params, options);
  }

  requestSampling(params: CreateMessageRequest['params'], options?: RequestOptions): Promise<unknown> {
    return this.#server.createMessage(params, options);
  }

  listRoots(options?: RequestOptions): Promise<{ roots: Array<{ uri: string; name?: string }> }> {
    return this.#server.listRoots(undefined, { ...options, ...this.#related });
  }
}

/**
 * A request's channel with a 2026-07-28 round: its questions wait for the call's input-required
 * result (client-relay.ts), anything else goes to `channel` itself. Calls through, so a channel
 * whose methods are its class's (PlainCallRequest) keeps them.
 */
export function withRound(channel: RequestChannel, round: PermissionRound): RequestChannel {
  const { listRoots } = channel;
  return {
    elicitInput: (params, options) => channel.elicitInput(params, options),
    requestSampling: (params, options) => channel.requestSampling(params, options),
    ...(listRoots === undefined ? {} : { listRoots: (options) => listRoots.call(channel, options) }),
    round,
  };
}
