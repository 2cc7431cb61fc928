import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ToolContext } from '@quiver/types';
import { callOnce } from './call-once.js';
import { CallRouter } from './call-router.js';
import type { McpToolDefinition } from './mcp-tool.js';

let warmed = false;

const STAND_IN: McpToolDefinition = { name: 'quiver_bridge_warm_up', inputSchema: { type: 'object' } };

/**
 * Once per process, after the first server connected: two calls of `callOnce` (the call's timer
 * and tracking, the direct send, the router's settling by id, the result check, cleaning and
 * conversion) on a stand-in transport in memory that answers each request with a text result, so
 * that V8 has compiled that path before a real call waits on it. Nothing reaches a server, and
 * nothing is published, logged or traced (`callOnce` is below the call's span); the results are
 * dropped.
 */
export async function warmCallPath(): Promise<void> {
  if (warmed) return;
  warmed = true;
  try {
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
    const client = { transport, getNegotiatedProtocolVersion: () => undefined } as unknown as Client;
    const ctx = {
      callId: 'warm-up',
      signal: new AbortController().signal,
      onAbort: () => () => {},
      emit: () => {},
    } as unknown as ToolContext;
    for (let round = 0; round < 2; round++) {
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
      });
    }
  } catch {
    // Only a warm-up: the first call runs the same and reports its own errors.
  }
}
