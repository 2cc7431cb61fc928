import type { EventBus, QuiverEvent } from '@quiver/types';

/**
 * Calls `listener` with one session's client-relay events (`client_relay.requested`,
 * `client_relay.completed`): the bridge publishes a bridged server's requests of the client on
 * the host's bus, not on the session's. The type is checked here as well, since an embedder may
 * give the host a bus that ignores the types it is subscribed with.
 */
export function onSessionRelayEvents(
  bus: EventBus,
  sessionId: string,
  listener: (event: QuiverEvent) => void,
): () => void {
  return bus.subscribe(
    (event) => {
      if (event.type.startsWith('client_relay.') && event.sessionId === sessionId) listener(event);
    },
    ['client_relay.requested', 'client_relay.completed'],
  );
}
