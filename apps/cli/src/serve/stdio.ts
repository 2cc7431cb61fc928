import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ServeConnection } from './mcp-server.js';

export interface RunningStdioServer {
  /** Resolves when the client closes the connection (stdin ends). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves one connection over this process's stdin/stdout. */
export async function serveStdio(connection: ServeConnection): Promise<RunningStdioServer> {
  const closed = new Promise<void>((resolve) => {
    connection.server.onclose = () => resolve();
  });
  await connection.declareRelayedCapabilities();
  await connection.server.connect(new StdioServerTransport());
  return { closed, close: () => connection.close() };
}
