import { clientSdkIfLoaded } from './client-sdk.js';

/** A remote server wants an authorization only a person can give, at `quiver mcp login`. */
export class McpLoginRequiredError extends Error {
  constructor(
    readonly server: string,
    detail?: string,
  ) {
    super(
      `the server asks for authorization${detail ? ` (${detail})` : ''}; sign in with \`quiver mcp login ${server}\``,
    );
    this.name = 'McpLoginRequiredError';
  }
}

function statusOf(error: object): number | undefined {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return status;
  const data = (error as { data?: { status?: unknown } }).data;
  return typeof data?.status === 'number' ? data.status : undefined;
}

/**
 * The login a failed connection needs, if it failed for want of one: a 401, the SDK's
 * UnauthorizedError, or the provider's own refusal anywhere in the cause chain.
 */
export function loginRequiredBy(server: string, error: unknown): McpLoginRequiredError | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    if (current instanceof McpLoginRequiredError) return current;
    if (clientSdkIfLoaded()?.UnauthorizedError.isInstance(current))
      return new McpLoginRequiredError(server, 'HTTP 401');
    if (statusOf(current) === 401) return new McpLoginRequiredError(server, 'HTTP 401');
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
