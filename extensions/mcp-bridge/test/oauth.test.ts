import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from '@quiver/test-utils/oauth-protected-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginToMcpServer, OAuthTokenStore, oauthDirectory, parseMcpServersConfig } from '../src/index.js';
import { StoredOAuthProvider } from '../src/oauth-provider.js';
import { createHarness, eventually, makeTempDir, successText } from './helpers.js';

/** The person's browser: opens the authorization URL and follows the redirect to the loopback. */
function browser(url: URL): void {
  void fetch(url).then((response) => response.text());
}

describe('OAuth for remote MCP servers', () => {
  let server: OAuthProtectedServer;
  let dataHome: { path: string; remove: () => Promise<void> };
  const previousDataHome = process.env.XDG_DATA_HOME;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    server = await startOAuthProtectedServer();
    dataHome = await makeTempDir('oauth-data');
    process.env.XDG_DATA_HOME = dataHome.path;
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    process.env.XDG_DATA_HOME = previousDataHome;
    await server.close();
    await dataHome.remove();
  });

  async function bridge() {
    const harness = createHarness({ remote: { url: server.url } });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    return harness;
  }

  async function login() {
    const config = parseMcpServersConfig({ remote: { url: server.url } }).get('remote');
    if (config === undefined) throw new Error('no config');
    return loginToMcpServer({
      server: 'remote',
      config,
      clientVersion: '0.0.0',
      onAuthorizationUrl: browser,
    });
  }

  it('names the login command when a remote server answers 401, instead of falling back to SSE', async () => {
    const harness = await bridge();
    const [status] = harness.bridge.status();
    expect(status).toMatchObject({ state: 'down', transport: undefined });
    expect(status?.lastError).toContain('quiver mcp login remote');
    expect(harness.diagnostics.map((diagnostic) => diagnostic.message).join('\n')).toContain(
      'sign in with `quiver mcp login remote`',
    );
  });

  it('signs in through a loopback redirect with PKCE and keeps the tokens in a 0600 file of the user', async () => {
    const outcome = await login();
    expect(outcome).toMatchObject({ outcome: 'signed-in', tools: 1 });
    expect(server.grants).toEqual(['authorization_code']);
    expect(path.dirname(outcome.tokenFile)).toBe(path.join(dataHome.path, 'quiver', 'oauth'));
    expect(oauthDirectory()).toBe(path.dirname(outcome.tokenFile));
    expect(statSync(outcome.tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(outcome.tokenFile)).mode & 0o777).toBe(0o700);
    expect(readFileSync(outcome.tokenFile, 'utf8')).toContain('refresh_token');

    const harness = await bridge();
    const { result } = await harness.call('mcp__remote__whoami', {});
    expect(successText(result)).toBe('signed in as fixture-user');
  });

  it('turns away a callback that does not carry the state it sent, and keeps waiting for the real one', async () => {
    const config = parseMcpServersConfig({ remote: { url: server.url } }).get('remote');
    if (config === undefined) throw new Error('no config');
    let forged: number | undefined;
    const outcome = await loginToMcpServer({
      server: 'remote',
      config,
      clientVersion: '0.0.0',
      onAuthorizationUrl: (url) => {
        const callback = new URL(url.searchParams.get('redirect_uri') ?? '');
        callback.searchParams.set('code', 'stolen-code');
        callback.searchParams.set('state', 'forged');
        void fetch(callback)
          .then((response) => {
            forged = response.status;
          })
          .then(() => browser(url));
      },
    });
    expect(forged).toBe(400);
    expect(outcome.outcome).toBe('signed-in');
  });

  it('says the user is already signed in when the stored token still works', async () => {
    await login();
    expect(await login()).toMatchObject({ outcome: 'already-signed-in', tools: 1 });
    expect(server.grants).toEqual(['authorization_code']);
  });

  it('refreshes an expired access token and keeps the new one for the next start', async () => {
    const { tokenFile } = await login();
    const before = new OAuthTokenStore().read(server.url)?.tokens?.access_token;
    server.expireAccessTokens();

    const harness = await bridge();
    const { result } = await harness.call('mcp__remote__whoami', {});
    expect(successText(result)).toBe('signed in as fixture-user');
    expect(server.grants).toEqual(['authorization_code', 'refresh_token']);
    const after = new OAuthTokenStore().read(server.url)?.tokens?.access_token;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  });

  it('keeps tokens another Quiver process refreshed while this one found its own rejected', async () => {
    await login();
    const store = new OAuthTokenStore();
    const provider = new StoredOAuthProvider({ server: 'remote', serverUrl: server.url, store });
    provider.tokens();
    store.update(server.url, (record) => ({
      ...record,
      tokens: { access_token: 'refreshed-elsewhere', token_type: 'Bearer' },
    }));
    provider.invalidateCredentials('tokens');
    expect(store.read(server.url)?.tokens?.access_token).toBe('refreshed-elsewhere');

    provider.tokens();
    provider.invalidateCredentials('tokens');
    expect(store.read(server.url)?.tokens).toBeUndefined();
  });

  it('asks for a new sign-in when the refresh token was revoked', async () => {
    await login();
    server.expireAccessTokens();
    server.revokeRefreshTokens();
    const harness = await bridge();
    const status = await eventually(
      () => harness.bridge.status().find((entry) => entry.state === 'down'),
      'the server to be reported down',
    );
    expect(status.lastError).toContain('quiver mcp login remote');
  });

  it('ignores a token file that other users could read', async () => {
    const { tokenFile } = await login();
    const { chmodSync } = await import('node:fs');
    chmodSync(tokenFile, 0o644);
    const harness = await bridge();
    expect(harness.bridge.status()[0]?.lastError).toContain('quiver mcp login remote');
  });

  it('refuses an oauth section that cannot work, naming the key and how to fix it', () => {
    const parse = (oauth: Record<string, unknown>) => () =>
      parseMcpServersConfig({ remote: { url: server.url, oauth } });
    expect(parse({ grant: 'client_credentials', clientId: 'bot' })).toThrow(
      'mcpServers.remote.oauth.grant: grant client_credentials needs clientId and clientSecret or privateKeyFile.',
    );
    expect(parse({ privateKeyFile: 'keys/bot.pem' })).toThrow('privateKeyFile must be an absolute path');
    expect(parse({ clientMetadataUrl: 'http://example.com/client.json' })).toThrow(
      'must be served over https',
    );
    expect(parse({ clientSecrets: 'x' })).toThrow('mcpServers.remote.oauth');
  });

  it('tells which key file it could not read when a client-credentials key is missing', async () => {
    const harness = createHarness({
      remote: {
        url: server.url,
        oauth: {
          grant: 'client_credentials',
          clientId: 'bot',
          privateKeyFile: path.join(dataHome.path, 'absent.pem'),
        },
      },
    });
    cleanups.push(harness.stop);
    await harness.bridge.start();
    expect(harness.bridge.status()[0]?.lastError).toContain('mcpServers.remote.oauth.privateKeyFile');
  });
});
