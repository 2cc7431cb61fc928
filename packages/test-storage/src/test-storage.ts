import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorageBackend } from '@quiver/storage-postgres';
import { createStorageBackend } from '@quiver/storage-sqlite';
import {
  createTestStorage as createSqliteTestStorage,
  type TestStorage,
  type TestStorageBackend,
  type TestStorageKind,
  testStorageOver,
} from '@quiver/test-utils';
import type { TestPostgresServer } from '@quiver/test-utils/postgres-server';

export interface BackendTestStorageOptions {
  /** Prefix of the temp data directory's (and the PostgreSQL database's) name. */
  prefix: string;
  /** Personality the calls run under unless a call names one. */
  personalityId: string;
  backend: TestStorageKind;
  /** The server a `postgres` storage creates its fresh database on (see `usePostgresServer` in @quiver/test-utils). */
  postgres?: TestPostgresServer;
}

/** What every test process of one storage agrees on: the `project` and `user` scope identities. */
const TEST_PROJECT = 'test-project';
const TEST_USER = 'tester';
let databases = 0;

function databaseName(prefix: string): string {
  databases += 1;
  const readable = prefix
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 32);
  return `${readable || 'quiver'}_${process.pid}_${databases}`;
}

/**
 * The storage capability on a fresh temp directory (SQLite) or a fresh database of `postgres`
 * (PostgreSQL), ready for `call` and `handle`; `dispose()` closes it.
 */
export async function createTestStorage(options: BackendTestStorageOptions): Promise<TestStorage> {
  if (options.backend === 'sqlite') return createSqliteTestStorage(options);
  if (options.postgres === undefined) {
    throw new Error(
      'createTestStorage({ backend: "postgres" }) needs the server: pass postgres: from usePostgresServer() of @quiver/test-utils.',
    );
  }
  const url = await options.postgres.createDatabase(databaseName(options.prefix));
  const dataDir = await mkdtemp(join(tmpdir(), `${options.prefix}-`));
  return testStorageOver({
    kind: 'postgres',
    dataDir,
    location: url,
    backend: await openTestStorageBackend(url),
    personalityId: options.personalityId,
  });
}

/**
 * The storage backend at a `TestStorage`'s `location`, for a worker process: the same scope
 * identities as the test's own, so both see the same databases. The caller closes it.
 */
export async function openTestStorageBackend(location: string): Promise<TestStorageBackend> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    return openPostgresStorageBackend({
      url: location,
      project: TEST_PROJECT,
      userId: TEST_USER,
      maxConnections: 4,
    });
  }
  return createStorageBackend({ dataDir: location, userId: TEST_USER });
}
