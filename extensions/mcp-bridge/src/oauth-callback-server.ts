import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A one-shot HTTP listener on the loopback address that receives the authorization redirect. */
export interface OAuthCallbackServer {
  redirectUrl: string;
  /** The callback's query parameters, once the browser arrives with them. */
  callback: Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PAGE_DONE = 'Quiver received the authorization. You can close this window.\n';
const PAGE_REFUSED = 'Quiver did not accept this authorization; see the terminal.\n';

/**
 * Listens on 127.0.0.1 (RFC 8252 §7.3: a loopback redirect, any port). `accept` decides whether a
 * callback belongs to this sign-in (its `state`); others get an error page and are ignored.
 */
export async function startOAuthCallbackServer(
  accept: (params: URLSearchParams) => boolean,
  port = 0,
): Promise<OAuthCallbackServer> {
  let deliver: (params: URLSearchParams) => void = () => {};
  const callback = new Promise<URLSearchParams>((resolve) => {
    deliver = resolve;
  });
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    const accepted = accept(url.searchParams);
    response
      .writeHead(accepted ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      .end(accepted ? PAGE_DONE : PAGE_REFUSED);
    if (accepted) deliver(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${bound}/callback`,
    callback,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
