import { type EventBus, type QuiverEvent, subscribeToTypes } from '@quiver/types';

/**
 * Calls `listener` with one session's client-relay events (`client_relay.requested`,
 * `client_relay.completed`): the bridge publishes a bridged server's requests of the client on
 * the host's bus, not on the session's.
 */
export function onSessionRelayEvents(
  bus: EventBus,
  sessionId: string,
  listener: (event: QuiverEvent) => void,
): () => void {
  return subscribeToTypes(bus, ['client_relay.requested', 'client_relay.completed'], (event) => {
    if (event.sessionId === sessionId) listener(event);
  });
}
