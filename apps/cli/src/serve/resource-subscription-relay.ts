import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { errorMessage } from '@quiver/types';
import { type CatalogSource, relayScope } from './relay-scope.js';
import { resourceOwner } from './resource-owner.js';

type Unsubscribe = () => Promise<void>;

/**
 * One client's resource subscriptions, relayed to the bridged server that lists each resource:
 * its `notifications/resources/updated` reach the client under the same URI (serve never renames
 * resources). Ended when the client unsubscribes, when the connection closes, and moved to the
 * new configuration when it reloads.
 */
export class ResourceSubscriptionRelay {
  readonly #subscriptions = new Map<string, Promise<Unsubscribe>>();

  constructor(
    private readonly source: CatalogSource,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  /** Subscribes at the owning server; subscribing again to a URI changes nothing. */
  async subscribe(uri: string, signal?: AbortSignal): Promise<void> {
    const existing = this.#subscriptions.get(uri);
    if (existing !== undefined) {
      await existing;
      return;
    }
    const subscribing = this.#subscribeAtOwner(uri, signal);
    this.#subscriptions.set(uri, subscribing);
    try {
      await subscribing;
    } catch (error) {
      if (this.#subscriptions.get(uri) === subscribing) this.#subscriptions.delete(uri);
      throw error;
    }
  }

  /** Ends the subscription; a URI not subscribed to is no error (the result is the same). */
  async unsubscribe(uri: string): Promise<void> {
    const subscription = this.#subscriptions.get(uri);
    if (subscription === undefined) return;
    this.#subscriptions.delete(uri);
    await subscription.then((stop) => stop()).catch(() => {});
  }

  /** Ends every subscription: the client went away. */
  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions.keys()].map((uri) => this.unsubscribe(uri)));
  }

  /** After the configuration reloaded: the same URIs at the new configuration's servers. */
  async move(): Promise<void> {
    const uris = [...this.#subscriptions.keys()];
    await this.close();
    for (const uri of uris)
      await this.subscribe(uri).catch((error: unknown) =>
        this.log(`the subscription to ${uri} ended with the configuration reload: ${errorMessage(error)}`),
      );
  }

  async #subscribeAtOwner(uri: string, signal?: AbortSignal): Promise<Unsubscribe> {
    const scope = relayScope(this.source, signal);
    const { catalog } = scope;
    const owner = await resourceOwner(scope, uri);
    if (catalog === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no MCP server lists ${uri}`);
    try {
      return await catalog.subscribeResource(
        owner,
        uri,
        (updated) =>
          void this.notify(updated).catch((error: unknown) =>
            this.log(`could not tell the client that ${updated} changed: ${errorMessage(error)}`),
          ),
        scope.options,
      );
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `could not subscribe to ${uri} at MCP server "${owner}": ${errorMessage(error)}`,
      );
    }
  }
}

/** Handles `resources/subscribe` and `resources/unsubscribe` for one connection. */
export function relayResourceSubscriptions(
  server: Server,
  source: CatalogSource,
  log: (message: string) => void,
): ResourceSubscriptionRelay {
  const relay = new ResourceSubscriptionRelay(source, (uri) => server.sendResourceUpdated({ uri }), log);
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    await relay.subscribe(request.params.uri, ctx.mcpReq.signal);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await relay.unsubscribe(request.params.uri);
    return {};
  });
  return relay;
}
