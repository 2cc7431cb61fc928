import type { Client, RequestId } from '@modelcontextprotocol/client';
import { errorMessage, fail, type ToolContext, type ToolResult } from '@quiver/types';
import { toToolResult } from './call-result.js';
import type { CallRouter } from './call-router.js';
import { CallTimer, type OutstandingClientRequests } from './call-timer.js';
import {
  CONNECTION_LOST_CODES,
  describeNetworkFailure,
  errorCode,
  INVALID_PARAMS,
  isNetworkFailure,
} from './connection-errors.js';
import type { McpToolDefinition } from './mcp-tool.js';
import { type ProgressThrottle, throttleProgress } from './progress-throttle.js';
import { isOutputSchemaFailure, type ServerAnswer, sendToolCall } from './send-tool-call.js';

export type CallOutcome =
  | { kind: 'result'; result: ToolResult }
  /** The request may or may not have reached the server. */
  | { kind: 'connection_lost'; reason: string }
  /** The request was never sent. */
  | { kind: 'not_connected' };

export interface CallOnceOptions {
  server: string;
  client: Client;
  router: CallRouter;
  definition: McpToolDefinition;
  args: Record<string, unknown>;
  ctx: ToolContext;
  /** Restarted by each progress notification; on expiry the server is told to cancel. */
  timeoutMs: number;
  /** Never restarted. */
  maxTimeoutMs: number;
  /** The server's requests of the session's client: `timeoutMs` is held while one is unanswered. */
  outstanding?: OutstandingClientRequests;
  /** The server is on a pipe: the request goes out without `Client.callTool` (see `sendToolCall`). */
  direct: boolean;
  /** For the call's span: adds the trace context to the request's `_meta`, notes the server's answer and the request's id. */
  trace?: {
    inject: (meta: Record<string, unknown>) => void;
    answer: ServerAnswer;
    /** Told the JSON-RPC id the request went out with (undefined when it was never sent). */
    sent: (requestId: RequestId | undefined) => void;
  };
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? 'aborted' : String(reason);
}

/** One `tools/call` with abort, progress and timeout; failures come back as outcomes. */
export async function callOnce(options: CallOnceOptions): Promise<CallOutcome> {
  const { definition, ctx, timeoutMs, client, router } = options;
  let timedOut = false;
  let aborted = false;
  const timer = new CallTimer(timeoutMs, () => {
    timedOut = true;
    router.cancel(client, tracking, `timed out after ${timeoutMs} ms`);
  });
  options.outstanding?.watch(timer);
  // Made on the first progress: most calls have none.
  let progress: ProgressThrottle | undefined;
  const tracking = router.track((update) => {
    // Every notification keeps the call alive; only some of them are passed on.
    timer.refresh();
    progress ??= throttleProgress((held) => ctx.emit({ type: 'progress', ...held }));
    progress.push(update);
  });
  // Told of an abort without an AbortSignal per call; the router cancels as the SDK would.
  const stopListening = ctx.onAbort?.((reason) => {
    aborted = true;
    router.cancel(client, tracking, reasonText(reason));
  });
  try {
    if (aborted) {
      return {
        kind: 'result',
        result: fail('aborted', `the call to MCP tool "${definition.name}" was aborted`),
      };
    }
    const meta: Record<string, unknown> = { progressToken: tracking.token };
    options.trace?.inject(meta);
    const result = await sendToolCall(
      client,
      definition,
      { name: definition.name, arguments: options.args, _meta: meta },
      {
        // Without `onAbort`, the caller's signal goes to the SDK: aborting it sends notifications/cancelled.
        signal: stopListening === undefined ? ctx.signal : undefined,
        timeout: options.maxTimeoutMs,
        direct: options.direct,
        route: { router, tracking },
        answer: options.trace?.answer,
      },
    );
    return { kind: 'result', result: toToolResult(result) };
  } catch (error) {
    const code = errorCode(error);
    if (aborted || (stopListening === undefined && ctx.signal.aborted)) {
      const message = `the call to MCP tool "${definition.name}" was aborted; the server was told to cancel it`;
      return { kind: 'result', result: fail('aborted', message) };
    }
    if (timedOut || code === 'REQUEST_TIMEOUT') {
      const limit = timedOut ? timeoutMs : options.maxTimeoutMs;
      const message = `MCP tool "${definition.name}" of server "${options.server}" did not answer within ${limit} ms`;
      return { kind: 'result', result: fail('timeout', message) };
    }
    if ((typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) || isNetworkFailure(error)) {
      return { kind: 'connection_lost', reason: describeNetworkFailure(error) };
    }
    if (code === 'NOT_CONNECTED') return { kind: 'not_connected' };
    if (isOutputSchemaFailure(error)) {
      const message = `MCP server "${options.server}" answered "${definition.name}" with a result that breaks the tool's own outputSchema: ${errorMessage(error)}`;
      return { kind: 'result', result: fail('execution_failed', message) };
    }
    const message = `MCP server "${options.server}" refused the call to "${definition.name}": ${errorMessage(error)}`;
    return {
      kind: 'result',
      result: fail(code === INVALID_PARAMS ? 'input_invalid' : 'execution_failed', message),
    };
  } finally {
    stopListening?.();
    timer.clear();
    options.outstanding?.unwatch(timer);
    router.release(tracking);
    progress?.flush();
    options.trace?.sent(tracking.requestId);
  }
}
