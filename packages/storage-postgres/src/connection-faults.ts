import { errorMessage, QuiverError } from '@quiver/types';

// admin_shutdown, crash_shutdown, cannot_connect_now (restarting), and class 08: connection exceptions.
const LOST_STATES = new Set(['57P01', '57P02', '57P03']);
const LOST_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// pg reports a dropped socket and a client that already failed by message only.
const LOST_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|terminating connection|Client was closed and is not queryable/i;

/** True for an error that says the connection to PostgreSQL broke, not that the statement was wrong. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof QuiverError) return error.code === 'storage_unavailable';
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    if (LOST_STATES.has(code) || code.startsWith('08') || LOST_ERRNOS.has(code)) return true;
  }
  const message = errorMessage(error);
  return LOST_MESSAGES.test(message);
}

export interface StorageUnavailableContext {
  /** The database (and schema or table) the statement was for, without a password. */
  where: string;
  /** What Quiver was doing, as a gerund phrase: `writing to the store kanban`. */
  doing: string;
  /** Whether the statement may have taken effect (a COMMIT or a write sent before the loss). */
  maybeApplied?: boolean;
}

/** The `storage_unavailable` error a statement fails with when its connection was lost. */
export function storageUnavailable(error: unknown, context: StorageUnavailableContext): QuiverError {
  if (error instanceof QuiverError && error.code === 'storage_unavailable') return error;
  const reason = errorMessage(error);
  const outcome = context.maybeApplied
    ? 'It may or may not have been applied: read before retrying it.'
    : 'Nothing was changed.';
  return new QuiverError(
    'storage_unavailable',
    `Lost the connection to the PostgreSQL storage ${context.where} while ${context.doing}: ${reason}. ${outcome}`,
    {
      fix: 'Retry once the database is reachable again; Quiver reconnects by itself and keeps serving meanwhile.',
      details: {
        where: context.where,
        doing: context.doing,
        maybeApplied: context.maybeApplied ?? false,
        ...(typeof (error as { code?: unknown })?.code === 'string'
          ? { sqlState: (error as { code: string }).code }
          : {}),
      },
      cause: error,
    },
  );
}

/** How long to wait before attempt `attempt` (1-based) of reconnecting: doubling from 50 ms, at most 1 s, jittered. */
export function reconnectDelay(attempt: number): number {
  const base = Math.min(1_000, 50 * 2 ** Math.max(0, attempt - 1));
  return base / 2 + Math.random() * (base / 2);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Times an idempotent operation runs again after losing its connection, by default. */
export const IDEMPOTENT_RETRIES = 3;

/**
 * Runs `operation` again on a new connection when its connection was lost, up to `retries`
 * times with backoff. Only for operations that may safely run twice (reads, upserts, deletes,
 * `UPDATE … SET x = now()`): the first may have been applied before the loss.
 */
export async function retryIdempotent<T>(
  operation: () => Promise<T>,
  retries: number = IDEMPOTENT_RETRIES,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isConnectionLoss(error) || attempt > retries) throw error;
      await sleep(reconnectDelay(attempt));
    }
  }
}
