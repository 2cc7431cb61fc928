import { readFileSync } from 'node:fs';
import {
  ClientCredentialsProvider,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/client';
import type { HttpServerConfig } from './config.js';
import { loginRequiredBy } from './oauth-errors.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { OAuthTokenStore } from './oauth-token-store.js';

function hasAuthorizationHeader(config: HttpServerConfig): boolean {
  return Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
}

function readPrivateKey(server: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `mcpServers.${server}.oauth.privateKeyFile: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
    );
  }
}

/**
 * The bridge's auth provider for a remote server: the tokens `quiver mcp login` stored, refreshed
 * when the server says they expired, or a client-credentials grant when the configuration says
 * so. A server configured with its own Authorization header keeps that header and gets none.
 */
export function bridgeAuthProvider(
  server: string,
  config: HttpServerConfig,
  store: OAuthTokenStore = new OAuthTokenStore(),
): { authProvider?: OAuthClientProvider } {
  if (hasAuthorizationHeader(config)) return {};
  const { oauth } = config;
  if (oauth?.grant === 'client_credentials' && oauth.clientId && oauth.privateKeyFile)
    return {
      authProvider: new PrivateKeyJwtProvider({
        clientId: oauth.clientId,
        privateKey: readPrivateKey(server, oauth.privateKeyFile),
        algorithm: oauth.signingAlgorithm,
        ...(oauth.scope ? { scope: oauth.scope } : {}),
      }),
    };
  if (oauth?.grant === 'client_credentials' && oauth.clientId && oauth.clientSecret)
    return {
      authProvider: new ClientCredentialsProvider({
        clientId: oauth.clientId,
        clientSecret: oauth.clientSecret,
        ...(oauth.scope ? { scope: oauth.scope } : {}),
      }),
    };
  // Without a sign-in on record a server gets no provider: a 401 then names the login command,
  // and servers that need none pay nothing for the check.
  if (oauth === undefined && store.read(config.url) === undefined) return {};
  return {
    authProvider: new StoredOAuthProvider({
      server,
      serverUrl: config.url,
      store,
      ...(oauth ? { oauth } : {}),
    }),
  };
}

/**
 * What a failed HTTP connect should report: the login it needs (never an SSE fallback that hides
 * the 401), or undefined when it failed for another reason.
 */
export function authFailureOf(server: string, config: HttpServerConfig, error: unknown): Error | undefined {
  const login = loginRequiredBy(server, error);
  if (login === undefined) return undefined;
  if (!hasAuthorizationHeader(config)) return login;
  return new Error(
    `the server refused the Authorization header set in mcpServers.${server}.headers (HTTP 401); fix or remove that header (without it, sign in with \`quiver mcp login ${server}\`)`,
  );
}
