import type { Session } from '@quiver/runtime';
import type { CapabilityBackend, ClientRelayHandle } from '@quiver/types';

const NOBODY_TO_ASK =
  'this session has no client that can be asked (a terminal running `quiver call`, or an MCP client of `quiver serve`)';

/** What a session without a client answers: every request refused, saying why. */
const NOBODY: ClientRelayHandle = {
  elicit: async () => ({ action: 'refused', reason: NOBODY_TO_ASK }),
  sample: async () => ({ action: 'refused', reason: NOBODY_TO_ASK }),
};

/**
 * The client behind each session (the terminal, serve's MCP client), as the `client_relay`
 * capability hands it to a bridged tool whose server asks something while it runs.
 */
export class ClientRelays {
  readonly #bySession = new Map<string, ClientRelayHandle>();

  /** Relays the session's requests to `relay` until the session closes. */
  attach(session: Session, relay: ClientRelayHandle): void {
    this.#bySession.set(session.id, relay);
    const close = session.close.bind(session);
    session.close = async () => {
      this.#bySession.delete(session.id);
      await close();
    };
  }

  backend(): CapabilityBackend<'client_relay'> {
    return {
      capability: 'client_relay',
      resolve: (request) => this.#bySession.get(request.sessionId) ?? NOBODY,
    };
  }
}
