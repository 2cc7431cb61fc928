import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from './oauth-config.js';
import { McpLoginRequiredError } from './oauth-errors.js';
import type { OAuthTokenStore } from './oauth-token-store.js';

export interface StoredOAuthProviderOptions {
  /** The configured server name, for the message that says how to sign in. */
  server: string;
  serverUrl: string;
  store: OAuthTokenStore;
  /**
   * Where the authorization server sends the browser back (`quiver mcp login`). Absent for the
   * bridge, which cannot ask a person: there an authorization that needs a browser fails with
   * the command that signs in.
   */
  login?: {
    redirectUrl: string;
    /** Shows the person the authorization URL. */
    onAuthorizationUrl: (url: URL) => void;
  };
  /** `mcpServers.<name>.oauth`: a client registered beforehand, a default scope. */
  oauth?: OAuthConfig;
}

/** Placeholder redirect for the bridge: a refresh needs none, but the SDK reads one. */
const BRIDGE_REDIRECT_URL = 'http://127.0.0.1/callback';

/** Registered redirect URIs; the SDK's stored type leaves them out though registration returns them. */
function redirectUrisOf(information: StoredOAuthClientInformation | undefined): string[] | undefined {
  const uris = (information as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : undefined;
}

/** The SDK's OAuth client provider over the user's token store. */
export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private expectedState: string | undefined;
  private authorizationUrl: URL | undefined;
  private usedTokens: StoredOAuthTokens | undefined;

  constructor(private readonly options: StoredOAuthProviderOptions) {}

  get redirectUrl(): string {
    return (
      this.options.login?.redirectUrl ??
      redirectUrisOf(this.stored()?.clientInformation)?.[0] ??
      BRIDGE_REDIRECT_URL
    );
  }

  /** A client ID metadata document: used instead of registering where the server supports it. */
  get clientMetadataUrl(): string | undefined {
    return this.options.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Quiver',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.options.oauth?.scope ? { scope: this.options.oauth.scope } : {}),
    } as OAuthClientMetadata;
  }

  /** The URL the person was sent to, once an authorization was started. */
  get startedAuthorization(): URL | undefined {
    return this.authorizationUrl;
  }

  /** The `state` sent with the authorization request; the callback must return it unchanged. */
  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  callbackStateMatches(state: string | null): boolean {
    return this.expectedState !== undefined && state === this.expectedState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const preRegistered = this.options.oauth?.clientId;
    if (preRegistered !== undefined) {
      const secret = this.options.oauth?.clientSecret;
      return { client_id: preRegistered, ...(secret === undefined ? {} : { client_secret: secret }) };
    }
    const information = this.stored()?.clientInformation;
    if (this.options.login === undefined) {
      // Registering a client is part of signing in, which needs a person.
      if (information === undefined) throw new McpLoginRequiredError(this.options.server);
      return information;
    }
    // A client registered for another loopback port cannot receive this callback: register anew.
    const redirects = redirectUrisOf(information);
    if (redirects !== undefined && redirects.length > 0 && !redirects.includes(this.redirectUrl))
      return undefined;
    return information;
  }

  saveClientInformation(clientInformation: StoredOAuthClientInformation): void {
    this.options.store.update(this.options.serverUrl, (record) => ({ ...record, clientInformation }));
  }

  tokens(): StoredOAuthTokens | undefined {
    const tokens = this.stored()?.tokens;
    this.usedTokens = tokens;
    return tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    const signingIn = this.options.login !== undefined;
    this.options.store.update(this.options.serverUrl, ({ requiredScope, ...record }) => ({
      ...record,
      // Only a sign-in can grant a step-up's scope; a refresh keeps asking for it.
      ...(signingIn || requiredScope === undefined ? {} : { requiredScope }),
      tokens,
      savedAt: Date.now(),
    }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.options.login === undefined) {
      // A step-up asks for more scope than the token has: the next sign-in must ask for it too.
      const requiredScope = authorizationUrl.searchParams.get('scope') ?? undefined;
      if (requiredScope !== undefined && this.stored()?.tokens !== undefined)
        this.options.store.update(this.options.serverUrl, (record) => ({ ...record, requiredScope }));
      throw new McpLoginRequiredError(this.options.server);
    }
    this.authorizationUrl = authorizationUrl;
    this.options.login.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new McpLoginRequiredError(this.options.server);
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'all') this.options.store.remove(this.options.serverUrl);
    if (scope === 'client')
      this.options.store.update(this.options.serverUrl, ({ clientInformation: _, ...rest }) => rest);
    // Another Quiver process may have refreshed meanwhile (a refresh token is often single-use):
    // only the tokens this one used and found rejected are dropped, never newer ones.
    if (scope === 'tokens' && this.stored()?.tokens?.access_token === this.usedTokens?.access_token)
      this.options.store.update(this.options.serverUrl, ({ tokens: _, savedAt: __, ...rest }) => rest);
  }

  private stored() {
    return this.options.store.read(this.options.serverUrl);
  }
}
