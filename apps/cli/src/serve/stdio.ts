import { BoundedStdioServerTransport } from './bounded-stdio.js';
import type { ServeConnection } from './mcp-server.js';

/** The longest the client's first message waits for the warm-up (it settles in milliseconds). */
const WARM_UP_WAIT_MS = 1_000;

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
  // Compiled before the client's first message is read, not between its listing and first call.
  await boundedWait(connection.warmCallPath(), WARM_UP_WAIT_MS);
  await connection.server.connect(new BoundedStdioServerTransport({ maxMessageBytes, maxInFlight }));
  return { closed, close: () => connection.close() };
}

function boundedWait(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
