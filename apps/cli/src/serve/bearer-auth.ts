import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { errorMessage } from '@quiver/types';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

/** `serve.auth` of quiver.yaml, as the host validated it. */
export interface ServeAuthSettings {
  issuer: string;
  /** For JWT access tokens; otherwise `introspection`. */
  jwksUri?: string | undefined;
  /** For opaque access tokens (RFC 7662), with the client secret read from the environment. */
  introspection?: { url: string; clientId: string; clientSecret: string } | undefined;
  resource?: string | undefined;
  claim: string;
  personalities: Record<string, string>;
  scopes: string[];
}

/** Who called, as the token says, and the personality their session runs with. */
export interface Caller {
  /** The token's `sub` (or its client id when it has none). */
  subject: string;
  clientId: string;
  personality: string;
  authInfo: AuthInfo;
}

export type Authentication = { ok: true; caller: Caller } | { ok: false; answer: Response };

/**
 * `quiver serve --http` as an OAuth 2.1 resource server: publishes its protected resource
 * metadata (RFC 9728), accepts only bearer tokens signed by the configured authorization server's
 * keys, issued by it, for this resource (audience), unexpired and carrying the required scopes,
 * and maps the configured claim to a personality. Refusals carry the `WWW-Authenticate`
 * challenge that tells a client where to sign in.
 */
export class ServeAuthenticator {
  readonly resource: URL;
  readonly metadataUrl: string;
  readonly #keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly settings: ServeAuthSettings,
    servedUrl: string,
  ) {
    this.resource = new URL(settings.resource ?? servedUrl);
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(this.resource);
    this.#keys = settings.jwksUri ? createRemoteJWKSet(new URL(settings.jwksUri)) : undefined;
  }

  /** The paths the metadata answers at: the path-aware one (RFC 9728) and the bare one. */
  isMetadataPath(path: string): boolean {
    return path === new URL(this.metadataUrl).pathname || path === '/.well-known/oauth-protected-resource';
  }

  answerMetadata(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    response.end(
      JSON.stringify({
        resource: this.resource.href,
        authorization_servers: [this.settings.issuer],
        bearer_methods_supported: ['header'],
        ...(this.settings.scopes.length > 0 ? { scopes_supported: this.settings.scopes } : {}),
        resource_name: 'Quiver',
      }),
    );
  }

  async authenticate(request: IncomingMessage): Promise<Authentication> {
    const challenge = { resourceMetadataUrl: this.metadataUrl, requiredScopes: this.settings.scopes };
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(request.headers.authorization, {
        verifier: { verifyAccessToken: (token) => this.#verify(token) },
        expectedResource: this.resource,
        ...challenge,
      });
    } catch (error) {
      return { ok: false, answer: bearerAuthChallengeResponse(error, challenge) };
    }
    const payload = authInfo.extra?.payload as JWTPayload;
    const personality = this.#personalityOf(payload);
    if (personality === undefined)
      return {
        ok: false,
        answer: bearerAuthChallengeResponse(
          new OAuthError(
            OAuthErrorCode.InsufficientScope,
            `Forbidden: the token's ${this.settings.claim} claim names no personality this server maps (serve.auth.personalities in quiver.yaml); ask its operator for access.`,
          ),
          challenge,
        ),
      };
    const subject = typeof payload.sub === 'string' ? payload.sub : authInfo.clientId;
    return { ok: true, caller: { subject, clientId: authInfo.clientId, personality, authInfo } };
  }

  async #verify(token: string): Promise<AuthInfo> {
    let payload: JWTPayload;
    try {
      payload = this.#keys
        ? (
            await jwtVerify(token, this.#keys, {
              issuer: this.settings.issuer,
              audience: this.resource.href,
              requiredClaims: ['exp'],
            })
          ).payload
        : await this.#introspect(token);
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        `The access token was refused: ${errorMessage(error)}`,
      );
    }
    const clientId = [payload.client_id, payload.azp, payload.sub].find((value) => typeof value === 'string');
    return {
      token,
      clientId: (clientId as string | undefined) ?? 'unknown',
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
      ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
      resource: this.resource,
      extra: { payload },
    };
  }

  /**
   * Asks the authorization server about an opaque token (RFC 7662): it must be active, issued by
   * `issuer` (when the answer names one), for this resource, and carry an expiry.
   */
  async #introspect(token: string): Promise<JWTPayload> {
    const endpoint = this.settings.introspection as NonNullable<ServeAuthSettings['introspection']>;
    const credentials = Buffer.from(
      `${encodeURIComponent(endpoint.clientId)}:${encodeURIComponent(endpoint.clientSecret)}`,
    ).toString('base64');
    const answer = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok)
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        `The authorization server's introspection endpoint answered ${answer.status}; check serve.auth.introspection (its client id and secret).`,
      );
    const payload = (await answer.json()) as JWTPayload & { active?: unknown };
    if (payload.active !== true) throw new Error('the authorization server says it is not active');
    if (payload.iss !== undefined && payload.iss !== this.settings.issuer)
      throw new Error(`issued by ${JSON.stringify(payload.iss)}, not ${this.settings.issuer}`);
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.includes(this.resource.href)) throw new Error(`not issued for ${this.resource.href}`);
    if (typeof payload.exp !== 'number') throw new Error('the authorization server gave no expiry');
    return payload;
  }

  /** The first configured claim value the token carries (a string claim, or any element of an array claim). */
  #personalityOf(payload: JWTPayload): string | undefined {
    const claimed = payload[this.settings.claim];
    const values = Array.isArray(claimed) ? claimed : [claimed];
    for (const [value, personality] of Object.entries(this.settings.personalities))
      if (values.includes(value)) return personality;
    return undefined;
  }
}

/** Writes a web `Response` (a refusal with its challenge) to a Node response. */
export async function sendWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    headers[key] = value;
  });
  response.writeHead(answer.status, headers);
  response.end(await answer.text());
}
