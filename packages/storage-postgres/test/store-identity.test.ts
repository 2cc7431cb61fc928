import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { isQuiverError, type PortableMigrations, type StorageHandle } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { checkPostgresStores } from '../src/check-stores.js';
import { connectPostgres } from '../src/connect-postgres.js';
import { openPostgresHostStore } from '../src/host-store.js';
import { openPostgresStorageBackend, type PostgresStorageBackend } from '../src/postgres-storage-backend.js';

const NOTES: PortableMigrations = {
  sqlite: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'],
  postgres: ['CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)'],
};

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; fix: string }> {
  try {
    await promise;
  } catch (error) {
    if (isQuiverError(error)) return { code: error.code, message: error.message, fix: error.fix ?? '' };
    throw error;
  }
  throw new Error('expected the store to be refused, but it opened');
}

describeWithSystemTools(['postgres', 'initdb'])('PostgreSQL stores that lost their tables', () => {
  const server = usePostgresServer();
  const backends: PostgresStorageBackend[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  const replica = async (url: string) => {
    const backend = await openPostgresStorageBackend({ url, project: 'team', userId: 'ada' });
    backends.push(backend);
    const handle: StorageHandle = await backend.resolve({
      capability: 'storage',
      declaration: true,
      toolName: 'notes_add',
      sessionId: 'session-1',
      personalityId: 'planner',
      agentId: 'main',
    });
    return { backend, open: () => handle.connect('notes', { scope: 'project', migrations: NOTES }) };
  };
  const admin = async (url: string) => {
    const pool = await connectPostgres({ url });
    closers.push(() => pool.end());
    return pool;
  };

  it('refuses a store whose schema was dropped, naming database, schema and fix, instead of starting it empty', async () => {
    const url = await server().freshDatabase('identity_store');
    const first = await replica(url);
    await (await first.open()).run('INSERT INTO notes (body) VALUES (?)', ['acknowledged']);
    const [schema] = first.backend.schemas();
    const pool = await admin(url);
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);

    const refused = await refusal((await replica(url)).open());
    expect(refused.code).toBe('storage_damaged');
    expect(refused.message).toContain(`schema ${schema}`);
    expect(refused.message).toContain('database identity_store');
    expect(refused.message).toContain('not re-created empty');
    expect(refused.fix).toContain('DELETE FROM quiver_identity.stores');
    // Nothing was re-created behind the refusal.
    const left = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(left.rowCount).toBe(0);

    // quiver doctor's check says so before anything opens it.
    expect(await checkPostgresStores({ url, source: 'test' })).toContainEqual(
      expect.objectContaining({ status: 'damaged', store: expect.stringContaining(`schema ${schema}`) }),
    );

    // The fix as written starts a new, empty store.
    await pool.query(/DELETE FROM [^;]+/.exec(refused.fix)![0]);
    const fresh = await (await replica(url)).open();
    expect(await fresh.all('SELECT body FROM notes')).toEqual([]);
  });

  it("refuses the host's tables of a concern when they were dropped, and keeps an untouched store working", async () => {
    const url = await server().freshDatabase('identity_host');
    const pool = await admin(url);
    const grants = await openPostgresHostStore(pool, 'grants', {
      sqlite: ['CREATE TABLE grants (rule TEXT PRIMARY KEY)'],
      postgres: ['CREATE TABLE grants (rule TEXT PRIMARY KEY)'],
    });
    await grants.run('INSERT INTO grants (rule) VALUES (?)', ['terminal(git status:*)']);
    await (await (await replica(url)).open()).run('INSERT INTO notes (body) VALUES (?)', ['kept']);
    await pool.query('DROP TABLE grants, quiver_schema_versions');

    const refused = await refusal(
      openPostgresHostStore(pool, 'grants', {
        sqlite: ['CREATE TABLE grants (rule TEXT PRIMARY KEY)'],
        postgres: ['CREATE TABLE grants (rule TEXT PRIMARY KEY)'],
      }),
    );
    expect(refused.code).toBe('storage_damaged');
    expect(refused.message).toContain('grants (schema public) in database identity_host');
    expect(await (await (await replica(url)).open()).all('SELECT body FROM notes')).toEqual([
      { body: 'kept' },
    ]);
  });
});
