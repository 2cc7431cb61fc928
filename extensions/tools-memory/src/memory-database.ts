import {
  fail,
  isQuiverError,
  type SqlStore,
  type StorageHandle,
  type StorageScope,
  type ToolContext,
  type ToolFailure,
} from '@quiver/types';
import { reindexStaleMemories } from './memory-index.js';
import { MEMORY_SCOPES } from './memory-model.js';
import { MEMORY_DATABASE, MEMORY_MIGRATIONS } from './schema.js';
import { retryWhileSqliteBusy } from './sqlite-busy.js';

/**
 * Every memory tool may use all three scopes; the storage backend decides what each resolves
 * to, so a personality only ever reaches its own personality database.
 */
export const MEMORY_CAPABILITIES = { storage: { scopes: [...MEMORY_SCOPES] } };

export function storageOf(ctx: ToolContext): StorageHandle | ToolFailure {
  const storage = ctx.capabilities.storage;
  if (!storage)
    return fail('not_available', 'The memory tools need the storage capability, and none was provided.');
  return storage;
}

export function isFailure(value: unknown): value is ToolFailure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/** The scopes this call may read, in the order results are preferred on equal rank. */
export function readableScopes(storage: StorageHandle, requested?: readonly StorageScope[]): StorageScope[] {
  return MEMORY_SCOPES.filter(
    (scope) => storage.scopes[scope] !== undefined && (requested === undefined || requested.includes(scope)),
  );
}

export async function openScope(
  storage: StorageHandle,
  scope: StorageScope,
): Promise<SqlStore | ToolFailure> {
  if (storage.scopes[scope] === undefined) {
    return fail('not_permitted', `This session may not use the ${scope} memory scope.`, { scope });
  }
  try {
    // Opening applies pending migrations, each in its own write transaction: safe to begin again.
    const store = await retryWhileSqliteBusy(() =>
      storage.connect(MEMORY_DATABASE, { scope, migrations: MEMORY_MIGRATIONS }),
    );
    await reindexStaleMemories(store);
    return store;
  } catch (error) {
    if (isQuiverError(error)) {
      // A damaged or unreachable store keeps its code, so the client can tell it from a missing backend.
      const code =
        error.code === 'storage_unavailable' || error.code === 'storage_damaged'
          ? error.code
          : 'not_available';
      const fix = error.fix ? ` Fix: ${error.fix}` : '';
      return fail(code, `The ${scope} memory database could not be opened: ${error.message}${fix}`, {
        scope,
      });
    }
    throw error;
  }
}
