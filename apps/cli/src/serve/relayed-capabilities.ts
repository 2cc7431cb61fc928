import type { Server } from '@modelcontextprotocol/server';
import { relayCompletions } from './completion-relay.js';
import { type Catalog, type CatalogSource, relayScope } from './relay-scope.js';

/**
 * How long a new connection waits for the personality's MCP servers before it declares what
 * they offer. Capabilities cannot change after initialize; a server slower than this is still
 * relayed, but its subscriptions and completions are not declared to this client.
 */
export const RELAYED_CAPABILITIES_WAIT_MS = 10_000;

/**
 * Declares `resources.subscribe` and `completions` when a bridged server of the session's
 * personality offers them, after waiting (bounded) for those servers to connect. Call before
 * connecting: the SDK fixes a server's capabilities then.
 */
export async function declareRelayedCapabilities(server: Server, source: CatalogSource): Promise<void> {
  const { session } = source();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    session.ready().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, RELAYED_CAPABILITIES_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  const { catalog, options } = relayScope(source);
  const offers = catalog?.offers(options);
  if (offers?.subscribe) server.registerCapabilities({ resources: { subscribe: true } });
  if (offers?.completions) relayCompletions(server, source);
  const instructions = relayedInstructions(catalog, options.servers);
  if (instructions !== undefined) setInstructions(server, instructions);
}

/**
 * The instructions of the personality's bridged servers that have connected by now, each under
 * the name of the server that sent it (their text cleaned by the bridge); undefined when none
 * sent any. A server that connects after the wait is not in this connection's instructions
 * (initialize has been answered), only in later connections'.
 */
export function relayedInstructions(
  catalog: Catalog | undefined,
  servers: readonly string[],
): string | undefined {
  const visible = new Set(servers);
  const parts = (catalog?.serverStatus() ?? [])
    .filter((status) => visible.has(status.server) && status.instructions)
    .map((status) => `## MCP server "${status.server}"\n\n${status.instructions}`);
  if (parts.length === 0) return undefined;
  return [
    'Instructions of the MCP servers this Quiver server relays, each under the name of its server:',
    ...parts,
  ].join('\n\n');
}

/**
 * The SDK takes instructions only in its constructor, before the bridged servers have connected;
 * it answers initialize from this field. A serve test reads them back from a real client, so an
 * SDK that moves the field fails there.
 */
function setInstructions(server: Server, instructions: string): void {
  (server as unknown as { _instructions?: string })._instructions = instructions;
}
