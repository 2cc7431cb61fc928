import type { Client } from '@modelcontextprotocol/client';
import { errorMessage } from '@quiver/types';

/** How long a server whose stream broke has to answer a ping before it counts as gone. */
export const DROP_PROBE_TIMEOUT_MS = 2_000;

/**
 * An HTTP server's event stream broke or could not be resumed. The SDK reports this only through
 * `onerror`; the calls waiting on that stream would otherwise wait for their own timeouts.
 */
export function isStreamDrop(error: unknown): boolean {
  return /SSE stream disconnected|SSE error|Failed to reconnect SSE stream/i.test(errorMessage(error));
}

/**
 * Undefined when the server answers a ping within the probe timeout, else why it did not. A dead
 * server refuses the connection at once, so the calls in flight fail at once.
 */
export async function stillAnswers(
  client: Client,
  timeoutMs = DROP_PROBE_TIMEOUT_MS,
): Promise<string | undefined> {
  try {
    await client.ping({ timeout: timeoutMs });
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
