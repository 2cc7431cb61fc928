import type { ServerResponse } from 'node:http';

/** Where `quiver serve --http` answers MCP. */
export const MCP_PATH = '/mcp';

/** An error answer as the MCP SDK's transport gives its own: -32000 unless a JSON-RPC code fits (-32700 parse error). */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  message: string,
  code = -32000,
): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
