import type { Server } from '@modelcontextprotocol/server';
import { relayCompletions } from './completion-relay.js';
import { type CatalogSource, relayScope } from './relay-scope.js';

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
}
