import type {
  CallToolRequestParams,
  Client,
  JSONRPCMessage,
  RequestId,
  Transport,
} from '@modelcontextprotocol/client';
import { CallTimer } from './call-timer.js';
import { clientSdk } from './client-sdk.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** One call's progress token, and the id of the request that carries it once it is sent. */
export interface CallTracking {
  readonly token: string;
  requestId: RequestId | undefined;
  /** A cancel asked for before the request went out: done as soon as it has. */
  pendingCancel?: () => void;
}

const CANCELLED_BY_CLIENT = -32800;
/** The revision whose results need the SDK's codec (`resultType`, input rounds): its calls keep the SDK's path. */
const MODERN_REVISION = '2026-07-28';

/** A `tools/call` sent on the transport by the router, settled by its JSON-RPC id. */
interface DirectCall {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** The overall limit: never restarted nor held, on the calls' shared deadline timer (no `setTimeout` per call). */
  timer: CallTimer;
}

function progressParams(message: JSONRPCMessage): Record<string, unknown> | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message)
    return undefined;
  const params = message.params;
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
}

function outgoingProgressToken(message: JSONRPCMessage): unknown {
  if (!('method' in message) || !('id' in message)) return undefined;
  return (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
}

/**
 * Tracks the bridge's calls on one transport by their own progress tokens: routes
 * `notifications/progress` synchronously as each message is read, and learns each call's
 * request id so a call can be cancelled without an AbortSignal per call.
 *
 * Why not the SDK's `onprogress`: it dispatches progress asynchronously but settles the response
 * at once, so the last progress before a result was lost, and its timeout reset is tied to it.
 * Why not a fresh AbortController per call: the first listener on a new AbortSignal costs about
 * 9 µs in Node 20, a measurable share of a local stdio call.
 */
export class CallRouter {
  private readonly calls = new Map<
    string,
    { tracking: CallTracking; onProgress: (update: ProgressUpdate) => void }
  >();
  private nextToken = 0;
  private deliver: ((message: JSONRPCMessage) => void) | undefined;
  private transport: Transport | undefined;
  private send: Transport['send'] | undefined;
  private readonly direct = new Map<RequestId, DirectCall>();
  private nextDirectId = 0;

  /** Call after `connect`, which installs the handler being wrapped. */
  attach(transport: Transport): void {
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    this.deliver = (message) => deliver.call(transport, message);
    this.transport = transport;
    transport.onmessage = (message, extra) => {
      if (this.direct.size > 0 && 'id' in message && !('method' in message)) {
        const id = message.id;
        const call = id === undefined ? undefined : this.direct.get(id);
        if (call !== undefined && id !== undefined) {
          this.settleDirect(id, call, message);
          return;
        }
      }
      const params = progressParams(message);
      const token = params?.progressToken;
      const call = typeof token === 'string' ? this.calls.get(token) : undefined;
      if (params !== undefined && call !== undefined && typeof params.progress === 'number') {
        call.onProgress({
          progress: params.progress,
          total: typeof params.total === 'number' ? params.total : undefined,
          message: typeof params.message === 'string' ? params.message : undefined,
        });
        return;
      }
      deliver.call(transport, message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      this.transport = undefined;
      this.failDirect(
        () => new (clientSdk().SdkError)(clientSdk().SdkErrorCode.ConnectionClosed, 'Connection closed'),
      );
      closed?.call(transport);
    };
    const send = transport.send.bind(transport);
    this.send = send;
    transport.send = (message, options) => {
      const token = outgoingProgressToken(message);
      if (typeof token === 'string' && 'id' in message) {
        const call = this.calls.get(token);
        if (call !== undefined) {
          call.tracking.requestId = message.id;
          const cancel = call.tracking.pendingCancel;
          if (cancel !== undefined) {
            call.tracking.pendingCancel = undefined;
            // After the SDK has registered the request, so that the answer settles it.
            queueMicrotask(cancel);
          }
        }
      }
      return send(message, options);
    };
  }

  /**
   * Whether `sendCall` can take a call of `client`: a connection on the 2025 revisions, whose
   * `tools/call` result the SDK only strips of `resultType` and checks against the schema.
   */
  canSendDirect(client: Client): boolean {
    return (
      this.transport !== undefined &&
      client.transport === this.transport &&
      client.getNegotiatedProtocolVersion() !== MODERN_REVISION
    );
  }

  /**
   * One `tools/call` written on the transport as is and settled by its JSON-RPC id, instead of
   * through the SDK's `Protocol.request`, whose per-call work (a timer, response and progress
   * handler maps, the codec and an asynchronous schema check of the answer, and the JSON-RPC
   * schema parse of the response in its router and again in `_onresponse`) was the larger part of
   * a bridged call's client-side cost. What the SDK does for such a call is kept: the ids never
   * collide with its own (strings here, numbers there), the result is checked with the same
   * `resultSchema` and its failure worded alike, an error answer becomes the SDK's
   * `ProtocolError`, `timeoutMs` ends the call with `REQUEST_TIMEOUT` and a cancel notification,
   * a closed connection fails it with `CONNECTION_CLOSED`, and a cancel (`cancel`) settles it.
   */
  sendCall(
    params: CallToolRequestParams,
    tracking: CallTracking,
    resultSchema: { '~standard': { validate: (value: unknown) => unknown } },
    timeoutMs: number,
  ): Promise<unknown> {
    const send = this.send;
    if (send === undefined || this.transport === undefined) {
      const { SdkError, SdkErrorCode } = clientSdk();
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    }
    const id = `quiver-call-${++this.nextDirectId}`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = new CallTimer(timeoutMs, () => {
        if (this.direct.get(id) !== call) return;
        this.direct.delete(id);
        this.notifyCancelled(id, 'Request timed out');
        const { SdkError, SdkErrorCode } = clientSdk();
        reject(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }));
      });
      const call: DirectCall = {
        resolve: (value) => {
          const outcome = resultSchema['~standard'].validate(value);
          if (outcome instanceof Promise) outcome.then((settled) => finish(settled), reject);
          else finish(outcome);
        },
        reject,
        timer,
      };
      const finish = (outcome: unknown) => {
        const { issues, value } = outcome as { issues?: readonly Issue[]; value?: unknown };
        if (issues !== undefined && issues.length > 0) {
          const { SdkError, SdkErrorCode } = clientSdk();
          const text = issues.map(formatIssue).join(', ');
          reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${text}`));
        } else resolve(value);
      };
      this.direct.set(id, call);
      tracking.requestId = id;
      send({ jsonrpc: '2.0', id, method: 'tools/call', params }).catch((error: unknown) => {
        if (this.direct.get(id) !== call) return;
        this.direct.delete(id);
        timer.clear();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
      const cancel = tracking.pendingCancel;
      if (cancel !== undefined) {
        tracking.pendingCancel = undefined;
        cancel();
      }
    });
  }

  private settleDirect(id: RequestId, call: DirectCall, message: JSONRPCMessage): void {
    this.direct.delete(id);
    call.timer.clear();
    const response = message as {
      result?: unknown;
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    if ('result' in response) {
      let result = response.result;
      // What the SDK's 2025 codec does to a result before its schema check.
      if (typeof result === 'object' && result !== null && 'resultType' in result) {
        const { resultType: _, ...rest } = result as Record<string, unknown>;
        result = rest;
      }
      call.resolve(result);
      return;
    }
    const error = response.error;
    if (typeof error === 'object' && error !== null && typeof error.code === 'number') {
      call.reject(clientSdk().ProtocolError.fromError(error.code, String(error.message ?? ''), error.data));
      return;
    }
    const { SdkError, SdkErrorCode } = clientSdk();
    call.reject(
      new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/call: not a JSON-RPC response'),
    );
  }

  private failDirect(error: () => Error): void {
    if (this.direct.size === 0) return;
    const calls = [...this.direct.values()];
    this.direct.clear();
    for (const call of calls) {
      call.timer.clear();
      call.reject(error());
    }
  }

  private notifyCancelled(requestId: RequestId, reason: string): void {
    this.send?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } }).catch(
      () => {},
    );
  }

  track(onProgress: (update: ProgressUpdate) => void): CallTracking {
    const tracking: CallTracking = { token: `quiver-${++this.nextToken}`, requestId: undefined };
    this.calls.set(tracking.token, { tracking, onProgress });
    return tracking;
  }

  release(tracking: CallTracking): void {
    this.calls.delete(tracking.token);
  }

  /**
   * Tells the server to stop the call (`notifications/cancelled`) and settles the SDK's pending
   * request with an error, as its own cancellation would.
   */
  cancel(client: Client, tracking: CallTracking, reason: string): void {
    const requestId = tracking.requestId;
    if (requestId === undefined) {
      tracking.pendingCancel = () => this.cancel(client, tracking, reason);
      return;
    }
    const direct = this.direct.get(requestId);
    if (direct !== undefined) {
      this.direct.delete(requestId);
      direct.timer.clear();
      this.notifyCancelled(requestId, reason);
      direct.reject(clientSdk().ProtocolError.fromError(CANCELLED_BY_CLIENT, reason));
      return;
    }
    void client
      .notification({ method: 'notifications/cancelled', params: { requestId, reason } })
      .catch(() => {});
    this.deliver?.({ jsonrpc: '2.0', id: requestId, error: { code: CANCELLED_BY_CLIENT, message: reason } });
  }
}

interface Issue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
}

/** An issue of a failed result check, worded as the SDK words it. */
function formatIssue(issue: Issue): string {
  if (!issue.path?.length) return issue.message;
  const path = issue.path.map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
  return `${path}: ${issue.message}`;
}
