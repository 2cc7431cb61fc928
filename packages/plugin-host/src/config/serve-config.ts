import { z } from 'zod';
import { environmentVariableOf } from '../storage/storage-config.js';

/**
 * `serve.auth` in quiver.yaml: `quiver serve --http` as an OAuth 2.1 resource server. Every
 * request carries a bearer token from the named authorization server, verified against its
 * JWKS (signature, issuer, audience, expiry); one claim of the token picks the personality the
 * caller's session runs with, and a caller whose claim matches no entry is refused.
 */
export const serveAuthConfigSchema = z
  .object({
    issuer: z
      .string()
      .url()
      .describe(
        'The authorization server: the `iss` its tokens carry, advertised to clients in the protected resource metadata.',
      ),
    jwksUri: z
      .string()
      .url()
      .optional()
      .describe(
        'Where the authorization server publishes its signing keys (JWKS), for JWT access tokens, e.g. https://auth.example.com/.well-known/jwks.json. Give this or `introspection`.',
      ),
    introspection: z
      .object({
        url: z.string().url().describe("The authorization server's token introspection endpoint (RFC 7662)."),
        clientId: z.string().min(1).describe('The client id serve authenticates to the endpoint with.'),
        clientSecret: z
          .string()
          .refine((value) => environmentVariableOf(value) !== undefined, {
            message: `must be a reference to an environment variable whose name starts with QUIVER_, such as \${QUIVER_INTROSPECTION_SECRET}: never the secret itself`,
          })
          .describe(`\`\${QUIVER_…}\`: the environment variable holding the client secret.`),
      })
      .strict()
      .optional()
      .describe(
        'For opaque access tokens: ask the authorization server about each token (RFC 7662). Give this or `jwksUri`.',
      ),
    resource: z
      .string()
      .url()
      .optional()
      .describe(
        'The public URL of the MCP endpoint (behind a balancer, e.g. https://tools.example.com/mcp): the audience tokens must be issued for. Default: the URL serve prints.',
      ),
    claim: z
      .string()
      .min(1)
      .describe(
        'The token claim that selects the personality, e.g. `groups`, `role` or `sub` (an array claim matches when any element does).',
      ),
    personalities: z
      .record(z.string(), z.string().min(1))
      .refine((table) => Object.keys(table).length > 0, {
        message: 'name at least one claim value and its personality',
      })
      .describe(
        'Claim value → personality id. The first claim value (in this order) that the token carries wins; a caller with none is refused (403).',
      ),
    scopes: z
      .array(z.string().min(1))
      .default([])
      .describe('Scopes every token must carry (refused 403 insufficient_scope otherwise).'),
  })
  .strict()
  .refine((auth) => (auth.jwksUri === undefined) !== (auth.introspection === undefined), {
    message: 'give exactly one of jwksUri (JWT access tokens) and introspection (opaque tokens)',
  });

/** `serve` in quiver.yaml: settings of `quiver serve`. */
export const serveConfigSchema = z
  .object({ auth: serveAuthConfigSchema.optional() })
  .strict()
  .describe(
    'Settings of `quiver serve`: `auth` makes `serve --http` an OAuth 2.1 resource server (see docs/deploy.md).',
  );

export type ServeAuthConfig = z.infer<typeof serveAuthConfigSchema>;
