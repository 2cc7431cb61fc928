import type * as ClientSdk from '@modelcontextprotocol/client';

/**
 * The MCP client SDK, loaded by the first connection: a session without MCP servers (and every
 * `quiver tools` or `quiver call` of a built-in tool) never reads its ~900 KB.
 */
let loaded: typeof ClientSdk | undefined;

export async function loadClientSdk(): Promise<typeof ClientSdk> {
  loaded ??= await import('@modelcontextprotocol/client');
  return loaded;
}

/** The SDK where a client exists, so a connection has loaded it; anything else is a programmer error. */
export function clientSdk(): typeof ClientSdk {
  if (loaded === undefined) throw new Error('the MCP client SDK is used before any connection loaded it');
  return loaded;
}

/** The SDK if a connection loaded it: before that, no value can have come from it. */
export function clientSdkIfLoaded(): typeof ClientSdk | undefined {
  return loaded;
}
