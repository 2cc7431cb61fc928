import {
  describeWithSystemTools,
  type TestStorage,
  type TestStorageKind,
  usePostgresServer,
} from '@quiver/test-utils';
import { afterEach, beforeEach, describe } from 'vitest';
import { createTestStorage } from './test-storage.js';

/** Every backend the storage capability has, for `for (const kind of STORAGE_KINDS)`. */
export const STORAGE_KINDS: readonly TestStorageKind[] = ['sqlite', 'postgres'];

/** `describe` for SQLite; for PostgreSQL, a describe that runs only where postgres and initdb exist. */
export function describeStorage(kind: TestStorageKind): typeof describe {
  return kind === 'postgres' ? describeWithSystemTools(['postgres', 'initdb']) : describe;
}

/**
 * Inside a `describeStorage(kind)` block: a fresh storage for each test (a temp directory, or a
 * fresh database on the block's PostgreSQL server), disposed after it.
 */
export function useTestStorage(
  kind: TestStorageKind,
  options: { prefix: string; personalityId: string },
): () => TestStorage {
  const postgres = kind === 'postgres' ? usePostgresServer() : undefined;
  let current: TestStorage | undefined;
  beforeEach(async () => {
    current = await createTestStorage({
      ...options,
      backend: kind,
      ...(postgres ? { postgres: postgres() } : {}),
    });
  }, 60_000);
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('The test storage exists only while a test runs.');
    return current;
  };
}
