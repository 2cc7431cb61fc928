import type { McpLoginOutcome } from '@quiver/mcp-bridge';
import { QuiverError } from '@quiver/types';
import type { Quiver } from './create-quiver.js';

export interface McpLoginRequest {
  /** The server's name under `mcpServers`. */
  server: string;
  clientVersion: string;
  /** Shows the person the URL to open; the sign-in then waits for the browser to come back. */
  onAuthorizationUrl: (url: URL) => void;
  /** How long to wait for the browser; default five minutes. */
  timeoutMs?: number;
}

/**
 * Signs the user in to a remote MCP server of the configuration Quiver runs with (a project's
 * servers count only once the project is trusted). The tokens go to the user's data directory.
 */
export async function loginToConfiguredMcpServer(
  quiver: Quiver,
  request: McpLoginRequest,
): Promise<McpLoginOutcome> {
  const { loginToMcpServer, parseMcpServersConfig } = await import('@quiver/mcp-bridge');
  const table = (quiver.host.options.config.mcpServers ?? {}) as Record<string, unknown>;
  const config = parseMcpServersConfig(table).get(request.server);
  if (config === undefined) {
    const known = Object.keys(table);
    throw new QuiverError('config_not_found', `No MCP server named "${request.server}" is configured.`, {
      fix:
        known.length > 0
          ? `Use one of: ${known.join(', ')}.`
          : 'Add it under mcpServers in quiver.yaml with `url: https://…`; a project configuration counts once you run `quiver trust`.',
      details: { server: request.server, known },
    });
  }
  return loginToMcpServer({
    server: request.server,
    config,
    clientVersion: request.clientVersion,
    onAuthorizationUrl: request.onAuthorizationUrl,
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
  });
}
