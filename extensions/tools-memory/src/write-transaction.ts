import type { SqlQueryable, SqlStore } from '@quiver/types';
import { retryWhileSqliteBusy } from './sqlite-busy.js';

/**
 * One write transaction on a scope's memory database, serialized with every other writer of
 * that scope in any process, so two agents saving the same fact leave one memory. SQLite:
 * BEGIN IMMEDIATE, begun again while it fails with SQLITE_BUSY (nothing has run yet then).
 * PostgreSQL: a SHARE ROW EXCLUSIVE lock on the table, which writers wait for and readers never do.
 */
export async function writeTransaction<T>(store: SqlStore, fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  let began = false;
  return retryWhileSqliteBusy(
    () => {
      began = false;
      return store.transaction(async (tx) => {
        began = true;
        if (tx.dialect === 'postgres') await tx.run('LOCK TABLE memories IN SHARE ROW EXCLUSIVE MODE');
        return fn(tx);
      });
    },
    () => !began,
  );
}
