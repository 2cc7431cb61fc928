import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ToolContext } from '@quiver/types';
import { type CallOutcome, callOnce } from './call-once.js';
import { CallRouter } from './call-router.js';
import { loadClientSdk } from './client-sdk.js';
import type { McpToolDefinition } from './mcp-tool.js';

let warmed = false;

const STAND_IN: McpToolDefinition = { name: 'quiver_bridge_warm_up', inputSchema: { type: 'object' } };

/**
 * Once per process, after the first server connected: `runBridgeCallWarmUp`, so that V8 has
 * compiled the bridge's call path before a real call waits on it. Only a warm-up: a failure is
 * dropped, and the first real call runs the same path and reports its own errors.
 */
export async function warmBridgeCallPath(): Promise<void> {
  if (warmed) return;
  warmed = true;
  await runBridgeCallWarmUp().catch(() => undefined);
}

/**
 * Two calls of `callOnce` (the call's timer and tracking, the direct send, the router's settling
 * by id, the result check, cleaning and conversion) on a stand-in transport in memory that answers
 * each request with a text result. Nothing reaches a server, and nothing is published, logged or
 * traced (`callOnce` is below the call's span). Resolves to each call's outcome: on a working path,
 * the stand-in's answer converted to `{ ok: true, value: 'warm-up' }`.
 */
export async function runBridgeCallWarmUp(): Promise<CallOutcome[]> {
  // The result check uses the SDK's schemas: loaded by a connection already, or here.
  await loadClientSdk();
  const transport: Pick<Transport, 'onmessage' | 'send'> = {
    // The SDK's handler, which the router wraps: the stand-in's answers never reach it.
    onmessage: () => {},
    async send(message: JSONRPCMessage) {
      if (!('id' in message) || !('method' in message)) return;
      const answer = { content: [{ type: 'text', text: 'warm-up' }] };
      queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id: message.id, result: answer }));
    },
  };
  const router = new CallRouter();
  router.attach(transport as Transport);
  // callOnce reads only these of a client and of a tool's context on the direct path.
  const client = { transport, getNegotiatedProtocolVersion: () => undefined } as unknown as Client;
  const ctx = {
    callId: 'warm-up',
    signal: new AbortController().signal,
    onAbort: () => () => {},
    emit: () => {},
  } as unknown as ToolContext;
  const results: CallOutcome[] = [];
  for (let round = 0; round < 2; round++) {
    results.push(
      await callOnce({
        server: 'warm-up',
        client,
        router,
        definition: STAND_IN,
        args: {},
        ctx,
        timeoutMs: 60_000,
        maxTimeoutMs: 60_000,
        direct: true,
      }),
    );
  }
  return results;
}
