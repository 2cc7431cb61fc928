import { describeWithSystemTools, type TestStorage, type TestStorageKind } from '@quiver/test-utils';
import { startPostgresServer, type TestPostgresServer } from '@quiver/test-utils/postgres-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { createTestStorage } from './test-storage.js';

/** Every backend the storage capability has, for `for (const kind of STORAGE_KINDS)`. */
export const STORAGE_KINDS: readonly TestStorageKind[] = ['sqlite', 'postgres'];

/** `describe` for SQLite; for PostgreSQL, a describe that runs only where postgres and initdb exist. */
export function describeStorage(kind: TestStorageKind): typeof describe {
  return kind === 'postgres' ? describeWithSystemTools(['postgres', 'initdb']) : describe;
}

/** Inside a describe: one PostgreSQL server for the block, started before its first test and stopped after its last. */
export function useTestPostgres(): () => TestPostgresServer {
  let server: TestPostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined)
      throw new Error('The PostgreSQL server is not started: call it inside a test or hook.');
    return server;
  };
}

/**
 * Inside a `describeStorage(kind)` block: a fresh storage for each test (a temp directory, or a
 * fresh database on the block's PostgreSQL server), disposed after it.
 */
export function useTestStorage(
  kind: TestStorageKind,
  options: { prefix: string; personalityId: string },
): () => TestStorage {
  const postgres = kind === 'postgres' ? useTestPostgres() : undefined;
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
