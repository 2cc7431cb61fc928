import { BoundedStdioServerTransport } from './bounded-stdio.js';
import type { ServeConnection } from './mcp-server.js';

export interface RunningStdioServer {
  /** Resolves when the client closes the connection (stdin ends). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one connection over this process's stdin/stdout, reading messages of at most
 * `maxMessageBytes`, with at most `maxInFlight` of the client's requests under way.
 */
export async function serveStdio(
  connection: ServeConnection,
  maxMessageBytes: number,
  maxInFlight: number,
): Promise<RunningStdioServer> {
  const closed = new Promise<void>((resolve) => {
    connection.server.onclose = () => resolve();
  });
  // The bridged servers take a while to start: open what the first call needs meanwhile.
  connection.prepareCalls();
  await connection.declareRelayedCapabilities();
  await connection.server.connect(new BoundedStdioServerTransport({ maxMessageBytes, maxInFlight }));
  return { closed, close: () => connection.close() };
}
