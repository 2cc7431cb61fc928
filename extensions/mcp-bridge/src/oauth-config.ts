import { z } from 'zod';

/**
 * `mcpServers.<name>.oauth`, for remote servers: how Quiver obtains a token. By default it
 * registers itself with the authorization server (dynamic client registration) at `quiver mcp
 * login`; `clientId` (and `clientSecret` for a confidential client) name a client registered
 * beforehand; `grant: client_credentials` gets tokens without a person, from that client's secret.
 */
export const oauthConfigSchema = z
  .object({
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    /** Scope to ask for when the server does not say which. */
    scope: z.string().min(1).optional(),
    grant: z.enum(['authorization_code', 'client_credentials']).default('authorization_code'),
  })
  .strict()
  .refine((oauth) => oauth.grant !== 'client_credentials' || (oauth.clientId && oauth.clientSecret), {
    message: 'grant client_credentials needs clientId and clientSecret',
    path: ['grant'],
  });

export type OAuthConfig = z.infer<typeof oauthConfigSchema>;
