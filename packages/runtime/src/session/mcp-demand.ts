import type { ToolCall } from '@quiver/types';
import type { SessionPolicy, ToolPool } from '../contracts.js';

/** The enabled MCP server a tool name belongs to (`mcp__<server>__<tool>` or `mcp__<server>`). */
function serverOf(name: string, policy: Pick<SessionPolicy, 'mcpServers'>): string | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice('mcp__'.length);
  const end = rest.indexOf('__');
  const server = end === -1 ? rest : rest.slice(0, end);
  return Object.hasOwn(policy.mcpServers, server) ? server : undefined;
}

/** The enabled MCP servers the names belong to, each once. */
export function serversOfToolNames(
  names: readonly string[],
  policy: Pick<SessionPolicy, 'mcpServers'>,
): string[] {
  const servers = new Set<string>();
  for (const name of names) {
    const server = serverOf(name, policy);
    if (server !== undefined) servers.add(server);
  }
  return [...servers];
}

/**
 * The servers a batch must wait for: those of MCP tools it names that the pool does not offer
 * yet (their server is still starting), so a first call to a lazily started server finds it.
 */
export function serversToAwait(
  calls: readonly ToolCall[],
  pool: ToolPool,
  policy: Pick<SessionPolicy, 'mcpServers'>,
): string[] {
  let missing: string[] | undefined;
  for (const call of calls) {
    if (pool.executables.has(call.name) || !call.name.startsWith('mcp__')) continue;
    (missing ??= []).push(call.name);
  }
  return missing === undefined ? [] : serversOfToolNames(missing, policy);
}
