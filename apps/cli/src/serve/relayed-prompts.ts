import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Catalog, RelayScope } from './relay-scope.js';

type McpPrompt = Awaited<ReturnType<Catalog['listPrompts']>>['items'][number];

/** A bridged server's prompt under the name serve's clients see. */
export interface RelayedPrompt {
  /** The name clients list and ask for. */
  name: string;
  server: string;
  /** The name the server knows it by. */
  original: string;
  prompt: McpPrompt;
}

/** `mcp__<server>__<prompt>`, like tools (server names never hold `__`). */
const NAMESPACED = /^mcp__([a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*)__(.+)$/s;

function ownNames(scope: RelayScope, server: string): boolean {
  const gate = scope.gates[server];
  return gate !== undefined && gate !== true && gate.promptNames === 'own';
}

/**
 * The prompts under the names clients see: `mcp__<server>__<prompt>`, or the server's own name
 * where the personality says `promptNames: own`. Two sources offering one name is a
 * configuration serve refuses, rather than guess which one a client means.
 */
export function relayedPrompts(scope: RelayScope, prompts: readonly McpPrompt[]): RelayedPrompt[] {
  const byName = new Map<string, RelayedPrompt>();
  for (const prompt of prompts) {
    const { server, name: original } = prompt;
    const name = ownNames(scope, server) ? original : `mcp__${server}__${original}`;
    const earlier = byName.get(name);
    if (earlier === undefined) byName.set(name, { name, server, original, prompt });
    else if (earlier.server !== server) throw promptNameClash(scope, name, [earlier.server, server]);
  }
  return [...byName.values()];
}

function promptNameClash(scope: RelayScope, name: string, servers: string[]): ProtocolError {
  const own = servers.filter((server) => ownNames(scope, server));
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `the prompt name "${name}" would be offered by MCP servers "${servers[0]}" and "${servers[1]}", so serve offers no prompts; in personality "${scope.personality}", set mcpServers.${own[0] ?? servers[0]}.promptNames to namespaced (or remove promptNames: own)`,
  );
}

/** The server and its own name for a prompt name a client asked for. */
export async function resolvePrompt(
  scope: RelayScope,
  name: string,
): Promise<{ catalog: Catalog; server: string; original: string }> {
  const { catalog, options } = scope;
  const error = () =>
    new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `there is no prompt "${name}" here; use a name prompts/list shows (mcp__<server>__<prompt>, or the server's own name where the personality says promptNames: own)`,
    );
  if (catalog === undefined) throw error();
  const [, server, original] = NAMESPACED.exec(name) ?? [];
  const namespaced =
    server !== undefined &&
    original !== undefined &&
    options.servers.includes(server) &&
    !ownNames(scope, server)
      ? { server, original }
      : undefined;
  // Without own names the name says its server: no listing needed.
  if (!options.servers.some((candidate) => ownNames(scope, candidate))) {
    if (namespaced === undefined) throw error();
    return { catalog, ...namespaced };
  }
  const listing = await catalog.listPrompts(undefined, options);
  const found = relayedPrompts(scope, listing.items).find((prompt) => prompt.name === name);
  if (found !== undefined) return { catalog, server: found.server, original: found.original };
  if (namespaced === undefined) throw error();
  return { catalog, ...namespaced };
}
