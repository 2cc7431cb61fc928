import path from 'node:path';
import { z } from 'zod';

/**
 * `mcpServers.<name>.oauth`, for remote servers: how Quiver obtains a token. By default it
 * registers itself with the authorization server (dynamic client registration) at `quiver mcp
 * login`; `clientMetadataUrl` offers a client ID metadata document instead where the server
 * supports one; `clientId` (and `clientSecret` for a confidential client) name a client
 * registered beforehand; `grant: client_credentials` gets tokens without a person, from that
 * client's secret or from a JWT signed with its private key (`privateKeyFile`). Built when
 * `mcpServers` is first read (see config.ts).
 */
export function oauthConfigSchema() {
  return z
    .object({
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      clientMetadataUrl: z
        .url()
        .refine(
          (url) => url.startsWith('https://'),
          'a client ID metadata document must be served over https',
        )
        .optional(),
      privateKeyFile: z
        .string()
        .refine((file) => path.isAbsolute(file), 'privateKeyFile must be an absolute path')
        .optional(),
      signingAlgorithm: z.string().min(1).default('ES256'),
      /** Scope to ask for when the server does not say which. */
      scope: z.string().min(1).optional(),
      grant: z.enum(['authorization_code', 'client_credentials']).default('authorization_code'),
    })
    .strict()
    .refine(
      (oauth) =>
        oauth.grant !== 'client_credentials' ||
        (oauth.clientId && (oauth.clientSecret || oauth.privateKeyFile)),
      {
        message: 'grant client_credentials needs clientId and clientSecret or privateKeyFile',
        path: ['grant'],
      },
    );
}

export type OAuthConfig = z.infer<ReturnType<typeof oauthConfigSchema>>;
