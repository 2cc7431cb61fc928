import type { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { errorMessage, QuiverError } from '@quiver/types';
import { z } from 'zod';
import { loadClientSdk } from './client-sdk.js';
import { isStdioServerConfig, type McpServerConfig } from './config.js';
import { startOAuthCallbackServer } from './oauth-callback-server.js';
import { loginRequiredBy } from './oauth-errors.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { OAuthTokenStore } from './oauth-token-store.js';

export interface McpLoginOptions {
  /** The configured server name. */
  server: string;
  config: McpServerConfig;
  clientVersion: string;
  /** Shows the person the URL to open in a browser; the flow then waits for the redirect back. */
  onAuthorizationUrl: (url: URL) => void;
  store?: OAuthTokenStore;
  /** How long to wait for the browser to come back; default five minutes. */
  timeoutMs?: number;
  /** Loopback port of the redirect; default any free port. */
  callbackPort?: number;
}

export interface McpLoginOutcome {
  /** `not-required`: the server answered without asking for authorization. */
  outcome: 'signed-in' | 'already-signed-in' | 'not-required';
  /** How many tools the server listed once signed in. */
  tools: number;
  /** Where the tokens are kept (0600, in the user's data directory). */
  tokenFile: string;
}

const toolsPage = z.looseObject({ tools: z.array(z.unknown()) });
/** An OAuth error code is shown; its description comes from the server and is not. */
const SAFE_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

type Attempt =
  | { kind: 'connected'; tools: number }
  | { kind: 'unauthorized'; error: unknown; transport: StreamableHTTPClientTransport | SSEClientTransport };

async function attempt(
  options: McpLoginOptions & { config: Extract<McpServerConfig, { url: string }> },
  provider: StoredOAuthProvider,
): Promise<Attempt> {
  const { config } = options;
  const { Client, SSEClientTransport, StreamableHTTPClientTransport } = await loadClientSdk();
  const url = new URL(config.url);
  const transportOptions = { authProvider: provider, requestInit: { headers: config.headers } };
  const transport =
    config.transport === 'sse'
      ? new SSEClientTransport(url, transportOptions)
      : new StreamableHTTPClientTransport(url, transportOptions);
  const client = new Client({ name: 'quiver-mcp-login', version: options.clientVersion });
  try {
    await client.connect(transport, { timeout: config.connectTimeoutMs });
    const page = await client.request({ method: 'tools/list', params: {} }, toolsPage, {
      timeout: config.connectTimeoutMs,
    });
    return { kind: 'connected', tools: page.tools.length };
  } catch (error) {
    if (loginRequiredBy(options.server, error) === undefined) {
      throw new QuiverError(
        'execution_failed',
        `Signing in to MCP server "${options.server}" failed: ${errorMessage(error)}`,
        {
          fix: `Check mcpServers.${options.server}.url and that the server is up, then run \`quiver mcp login ${options.server}\` again.`,
          cause: error,
        },
      );
    }
    return { kind: 'unauthorized', error, transport };
  } finally {
    await client.close().catch(() => {});
  }
}

function waitFor<T>(promise: Promise<T>, timeoutMs: number, server: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new QuiverError(
            'timeout',
            `No authorization for MCP server "${server}" came back within ${timeoutMs / 1000} s.`,
            {
              fix: `Run \`quiver mcp login ${server}\` again and open the URL it prints in a browser on this machine.`,
            },
          ),
        ),
      timeoutMs,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Signs the user in to a remote MCP server: OAuth 2.1 authorization code with PKCE, the redirect
 * received on a loopback port, tokens kept per user for the bridge to use and refresh.
 */
export async function loginToMcpServer(options: McpLoginOptions): Promise<McpLoginOutcome> {
  const { config, server } = options;
  if (isStdioServerConfig(config)) {
    throw new QuiverError(
      'usage',
      `MCP server "${server}" runs as a local process, which needs no sign-in.`,
      {
        fix: 'Only servers configured with a `url` sign in with `quiver mcp login`.',
        details: { server },
      },
    );
  }
  if (config.oauth?.grant === 'client_credentials') {
    throw new QuiverError(
      'usage',
      `MCP server "${server}" gets its tokens with the client credentials of its configuration; it needs no sign-in.`,
      {
        fix: `Remove \`grant: client_credentials\` under mcpServers.${server}.oauth to sign in as a person instead.`,
      },
    );
  }
  const httpOptions = { ...options, config };
  const { auth } = await loadClientSdk();
  const store = options.store ?? new OAuthTokenStore();
  const tokenFile = store.pathOf(config.url);
  let provider: StoredOAuthProvider | undefined;
  const callbackServer = await startOAuthCallbackServer(
    (params) => provider?.callbackStateMatches(params.get('state')) === true,
    options.callbackPort,
  );
  try {
    provider = new StoredOAuthProvider({
      server,
      serverUrl: config.url,
      store,
      login: { redirectUrl: callbackServer.redirectUrl, onAuthorizationUrl: options.onAuthorizationUrl },
      ...(config.oauth ? { oauth: config.oauth } : {}),
    });
    const requiredScope = store.read(config.url)?.requiredScope;
    const first = await attempt(httpOptions, provider);
    const callback = async () => {
      const params = await waitFor(callbackServer.callback, options.timeoutMs ?? 300_000, server);
      const refusal = params.get('error');
      if (refusal === null) return params;
      const code = SAFE_ERROR_CODE.test(refusal) ? refusal : 'unreadable error code';
      throw new QuiverError(
        'not_permitted',
        `The authorization server refused the sign-in to "${server}" (${code}).`,
        {
          fix: `Run \`quiver mcp login ${server}\` again and approve the request in the browser.`,
        },
      );
    };
    if (first.kind === 'connected') {
      const tokens = store.read(config.url)?.tokens;
      if (tokens === undefined) return { outcome: 'not-required', tools: first.tools, tokenFile };
      if (requiredScope === undefined) return { outcome: 'already-signed-in', tools: first.tools, tokenFile };
      // The token works but lacks a scope the server asked for during a call: authorize again.
      const started = await auth(provider, {
        serverUrl: config.url,
        scope: requiredScope,
        forceReauthorization: true,
      });
      if (started === 'REDIRECT') {
        const params = await callback();
        await auth(provider, {
          serverUrl: config.url,
          authorizationCode: params.get('code') ?? '',
          ...(params.get('iss') === null ? {} : { iss: params.get('iss') ?? '' }),
        });
      }
    } else {
      if (provider.startedAuthorization === undefined)
        throw loginRequiredBy(server, first.error) ?? first.error;
      await first.transport.finishAuth(await callback());
    }
    const second = await attempt(httpOptions, provider);
    if (second.kind !== 'connected') {
      throw new QuiverError('not_permitted', `MCP server "${server}" still refuses the new token.`, {
        fix: 'Check that the account you signed in with may use this server.',
        cause: second.error,
      });
    }
    return { outcome: 'signed-in', tools: second.tools, tokenFile };
  } finally {
    await callbackServer.close();
  }
}
