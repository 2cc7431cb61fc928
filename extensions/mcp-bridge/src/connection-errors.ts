import { errorMessage } from '@quiver/types';

/** SDK error codes of a request whose connection went away before the answer. */
export const CONNECTION_LOST_CODES = new Set(['CONNECTION_CLOSED', 'SEND_FAILED']);
export const INVALID_PARAMS = -32602;

const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
]);

function networkErrorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** An HTTP request that failed below MCP: refused, reset, unreachable. */
export function isNetworkFailure(error: unknown): boolean {
  const code = networkErrorCode(error);
  return (
    (code !== undefined && NETWORK_ERROR_CODES.has(code)) ||
    (error instanceof TypeError && error.message === 'fetch failed')
  );
}

export function describeNetworkFailure(error: unknown): string {
  const code = networkErrorCode(error);
  return code === undefined ? errorMessage(error) : `${errorMessage(error)} (${code})`;
}

export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
