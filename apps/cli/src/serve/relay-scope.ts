import type { Session } from '@quiver/runtime';
import type { Quiver } from '@quiver/wiring';

export type Catalog = NonNullable<Quiver['mcpCatalog']>;

/** What the relay reads at each request: the connection's current configuration and session. */
export type CatalogSource = () => { quiver: Quiver; session: Session };

type Gates = ReturnType<Quiver['host']['personality']>['mcpServers'];

/** What one relayed request may reach: the bridged servers the session's personality enables. */
export interface RelayScope {
  catalog: Catalog | undefined;
  /** Passed to every catalog request: the visible servers and the request's signal. */
  options: { servers: string[]; signal?: AbortSignal };
  /** The personality's settings per enabled server (`true` or `{ includeTools, …, promptNames }`). */
  gates: Gates;
  personality: string;
}

export function relayScope(source: CatalogSource, signal?: AbortSignal): RelayScope {
  const { quiver, session } = source();
  const personality = quiver.host.personality(session.options.personality);
  const servers = Object.keys(personality.mcpServers);
  return {
    catalog: quiver.mcpCatalog,
    options: { servers, ...(signal ? { signal } : {}) },
    gates: personality.mcpServers,
    personality: personality.id,
  };
}
