import type { Client } from '@modelcontextprotocol/client';
import { errorMessage } from '@quiver/types';

/** Called with the URI of a subscribed resource the server says has changed. */
export type ResourceUpdateListener = (uri: string) => void;

interface Subscription {
  readonly listeners: Set<ResourceUpdateListener>;
  /** Settles when the server has accepted (or refused) the subscription. */
  readonly accepted: Promise<void>;
}

export interface ResourceSubscriptionsOptions {
  /** The server's client while it is connected. */
  client: () => Client | undefined;
  /** Bounds each subscribe and unsubscribe request. */
  timeoutMs: number;
  /** Why a subscription could not be renewed after a reconnect. */
  report: (message: string) => void;
}

/**
 * The resource subscriptions of one bridged server, shared by everyone who relays them: the
 * server is asked once per URI however many listen, told to stop when the last one leaves, and
 * asked again after a reconnect (a new connection has none). Requests to the server go out one
 * after another, so an unsubscribe never overtakes the subscribe that follows it.
 */
export class ResourceSubscriptions {
  readonly #byUri = new Map<string, Subscription>();
  #chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ResourceSubscriptionsOptions) {}

  /** Passes the server's updates on to the listeners; call before connecting. */
  install(client: Client, isCurrent: () => boolean): void {
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (!isCurrent()) return;
      const { uri } = notification.params;
      for (const listener of this.#byUri.get(uri)?.listeners ?? []) listener(uri);
    });
  }

  /**
   * Listens to `uri`, subscribing at the server first when nobody else listens; resolves to the
   * function that stops listening. Rejects with the server's refusal.
   */
  async add(uri: string, listener: ResourceUpdateListener): Promise<() => Promise<void>> {
    let subscription = this.#byUri.get(uri);
    if (subscription === undefined) {
      const accepted = this.#send((client) =>
        client.subscribeResource({ uri }, { timeout: this.options.timeoutMs }),
      );
      subscription = { listeners: new Set(), accepted };
      this.#byUri.set(uri, subscription);
      const created = subscription;
      accepted.catch(() => {
        if (this.#byUri.get(uri) === created) this.#byUri.delete(uri);
      });
    }
    subscription.listeners.add(listener);
    await subscription.accepted;
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      await this.#remove(uri, listener);
    };
  }

  /** Subscribes again to every URI someone listens to, on a new connection. */
  renew(): void {
    for (const uri of this.#byUri.keys())
      this.#send((client) => client.subscribeResource({ uri }, { timeout: this.options.timeoutMs })).catch(
        (error: unknown) =>
          this.options.report(
            `could not subscribe again to ${uri} after reconnecting: ${errorMessage(error)}`,
          ),
      );
  }

  async #remove(uri: string, listener: ResourceUpdateListener): Promise<void> {
    const subscription = this.#byUri.get(uri);
    if (subscription === undefined || !subscription.listeners.delete(listener)) return;
    if (subscription.listeners.size > 0) return;
    this.#byUri.delete(uri);
    // Updates stop reaching anyone now; a server that cannot be told (down, or refusing) only
    // sends notifications nobody forwards.
    await this.#send((client) =>
      client.unsubscribeResource({ uri }, { timeout: this.options.timeoutMs }),
    ).catch(() => {});
  }

  #send(request: (client: Client) => Promise<unknown>): Promise<void> {
    const sent = this.#chain.then(async () => {
      const client = this.options.client();
      if (client === undefined) throw new Error('the server is not connected');
      await request(client);
    });
    this.#chain = sent.catch(() => {});
    return sent;
  }
}
