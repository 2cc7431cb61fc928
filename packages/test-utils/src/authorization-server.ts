// A small OAuth 2.1 authorization server for tests of resource servers: authorization server
// metadata (RFC 8414), its signing keys as a JWKS, and a token endpoint for the client
// credentials grant that issues ES256 JWT access tokens for the requested resource (RFC 8707),
// carrying the claims each registered client was given; with `opaque`, random tokens instead,
// which a resource server learns about at the introspection endpoint (RFC 7662, clients
// authenticate with HTTP Basic).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  /** Claims every token of this client carries (e.g. `{ groups: ['developers'] }`). */
  claims?: Record<string, unknown>;
}

export interface AuthorizationServer {
  /** The issuer (`iss`) and base URL. */
  issuer: string;
  jwksUri: string;
  tokenEndpoint: string;
  introspectionEndpoint: string;
  /** Every token request the server answered, as `clientId resource`. */
  issued: string[];
  /** Signs a token with the server's key as given, for tests of tokens a resource must refuse. */
  sign(payload: JWTPayload, expiresInSeconds?: number): Promise<string>;
  /** A client credentials grant for `resource`: the access token. */
  tokenFor(clientId: string, resource: string): Promise<string>;
  close(): Promise<void>;
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(value));
}

/** Client id and secret from HTTP Basic (client_secret_basic) or the form (client_secret_post). */
function clientCredentials(request: IncomingMessage, form: URLSearchParams): [string, string] | undefined {
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return id !== undefined && secret !== undefined
      ? [decodeURIComponent(id), decodeURIComponent(secret)]
      : undefined;
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id && secret ? [id, secret] : undefined;
}

export async function startAuthorizationServer(
  clients: RegisteredClient[],
  options: { opaque?: boolean } = {},
): Promise<AuthorizationServer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
  const issued: string[] = [];
  const opaqueTokens = new Map<string, JWTPayload>();
  let issuer = '';
  const sign = (payload: JWTPayload, expiresInSeconds = 300) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(privateKey);
  const grant = async (client: RegisteredClient, resource: string, scope: string | null) => {
    issued.push(`${client.clientId} ${resource}`);
    const claims: JWTPayload = {
      iss: issuer,
      sub: client.clientId,
      client_id: client.clientId,
      aud: resource,
      ...(scope ? { scope } : {}),
      ...client.claims,
    };
    if (!options.opaque) return sign(claims);
    const token = randomBytes(24).toString('base64url');
    opaqueTokens.set(token, { ...claims, exp: Math.floor(Date.now() / 1000) + 300 });
    return token;
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    if (request.method === 'GET' && path === '/.well-known/oauth-authorization-server')
      return json(response, 200, {
        issuer,
        // Required in the metadata; this server grants client credentials only.
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        introspection_endpoint: `${issuer}/introspect`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        response_types_supported: ['code'],
      });
    if (request.method === 'GET' && path === '/.well-known/jwks.json')
      return json(response, 200, { keys: [publicJwk] });
    if (request.method === 'POST' && path === '/token') {
      void formOf(request).then(async (form) => {
        const credentials = clientCredentials(request, form);
        const client = clients.find(
          (candidate) =>
            candidate.clientId === credentials?.[0] && candidate.clientSecret === credentials?.[1],
        );
        if (!client) return json(response, 401, { error: 'invalid_client' });
        if (form.get('grant_type') !== 'client_credentials')
          return json(response, 400, { error: 'unsupported_grant_type' });
        const resource = form.get('resource');
        if (!resource)
          return json(response, 400, { error: 'invalid_target', error_description: 'resource is required' });
        json(response, 200, {
          access_token: await grant(client, resource, form.get('scope')),
          token_type: 'Bearer',
          expires_in: 300,
        });
      });
      return;
    }
    if (request.method === 'POST' && path === '/introspect') {
      void formOf(request).then((form) => {
        const credentials = clientCredentials(request, new URLSearchParams());
        if (
          !clients.some(
            (client) => client.clientId === credentials?.[0] && client.clientSecret === credentials?.[1],
          )
        )
          return json(response, 401, { error: 'invalid_client' });
        const claims = opaqueTokens.get(form.get('token') ?? '');
        json(response, 200, claims ? { active: true, ...claims } : { active: false });
      });
      return;
    }
    json(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/introspect`,
    issued,
    sign,
    async tokenFor(clientId, resource) {
      const client = clients.find((candidate) => candidate.clientId === clientId);
      if (!client) throw new Error(`no client ${clientId} is registered`);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
          resource,
        }),
      });
      const answer = (await response.json()) as { access_token?: string; error?: string };
      if (!answer.access_token) throw new Error(`the token endpoint refused ${clientId}: ${answer.error}`);
      return answer.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
