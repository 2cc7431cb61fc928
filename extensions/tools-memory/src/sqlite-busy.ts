/** How long an operation keeps retrying while other processes hold a SQLite database's write lock. */
const BUSY_DEADLINE_MS = 120_000;

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `operation` again while it fails with SQLITE_BUSY before doing anything (`changedNothing`
 * says whether that holds for the failure at hand), for up to two minutes. SQLite's own busy
 * handler gives up after its timeout, and another process committing back to back on a slow,
 * loaded disk can hold the write lock away from it that long.
 */
export async function retryWhileSqliteBusy<T>(
  operation: () => Promise<T>,
  changedNothing: () => boolean = () => true,
): Promise<T> {
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isSqliteBusy(error) || !changedNothing() || Date.now() >= deadline) throw error;
      const backoff = Math.min(200, 5 * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, backoff / 2 + Math.random() * backoff));
    }
  }
}
