import type { Client, RequestId } from '@modelcontextprotocol/client';
import { fail, type ToolContext, type ToolResult } from '@quiver/types';
import { toToolResult } from './call-result.js';
import type { CallRouter } from './call-router.js';
import { CallTimer, type OutstandingClientRequests } from './call-timer.js';
import {
  CONNECTION_LOST_CODES,
  describeNetworkFailure,
  errorCode,
  errorMessage,
  INVALID_PARAMS,
  isNetworkFailure,
} from './connection-errors.js';
import type { McpToolDefinition } from './mcp-tool.js';
import { throttleProgress } from './progress-throttle.js';

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
  /** Told the JSON-RPC id the request went out with (undefined when it was never sent), for its span. */
  sent?: (requestId: RequestId | undefined) => void;
}

/** One `tools/call` with abort, progress and timeout; failures come back as outcomes. */
export async function callOnce(options: CallOnceOptions): Promise<CallOutcome> {
  const { definition, ctx, timeoutMs, client, router } = options;
  let timedOut = false;
  const timer = new CallTimer(timeoutMs, () => {
    timedOut = true;
    router.cancel(client, tracking, `timed out after ${timeoutMs} ms`);
  });
  options.outstanding?.watch(timer);
  const progress = throttleProgress((update) => ctx.emit({ type: 'progress', ...update }));
  const tracking = router.track((update) => {
    // Every notification keeps the call alive; only some of them are passed on.
    timer.refresh();
    progress.push(update);
  });
  try {
    // The caller's signal goes to the SDK as is: aborting it sends notifications/cancelled.
    const result = await client.callTool(
      { name: definition.name, arguments: options.args, _meta: { progressToken: tracking.token } },
      { signal: ctx.signal, timeout: options.maxTimeoutMs },
    );
    return { kind: 'result', result: toToolResult(result) };
  } catch (error) {
    const code = errorCode(error);
    if (ctx.signal.aborted) {
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
    const message = `MCP server "${options.server}" refused the call to "${definition.name}": ${errorMessage(error)}`;
    return {
      kind: 'result',
      result: fail(code === INVALID_PARAMS ? 'input_invalid' : 'execution_failed', message),
    };
  } finally {
    timer.clear();
    options.outstanding?.unwatch(timer);
    router.release(tracking);
    progress.flush();
    options.sent?.(tracking.requestId);
  }
}
