import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { checkPostgresStores, QuiverHost, type StorageConfig } from '../src/index.js';
import { tempDir } from './helpers.js';
import { loadPostgresBackend } from './postgres-backend.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const STORAGE: StorageConfig = {
  kind: 'postgres',
  url: `\${QUIVER_DOCTOR_DATABASE_URL}`,
  project: `\${QUIVER_DOCTOR_PROJECT}`,
} as StorageConfig;
const environment = (url: string) => ({ QUIVER_DOCTOR_DATABASE_URL: url, QUIVER_DOCTOR_PROJECT: 'doctor' });

describeWithSystemTools(['postgres', 'initdb'])("quiver doctor's check of PostgreSQL storage", () => {
  const server = usePostgresServer();
  const cleanups: Array<() => void> = [];

  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** A host that has run once against `url`: every store of its own is migrated there. */
  async function runHostOnce(url: string): Promise<void> {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      postgres: loadPostgresBackend,
      workspace: dir,
      logger: silent,
      environment: environment(url),
      config: { storage: STORAGE },
    });
    await host.close();
  }

  const check = (url: string) => checkPostgresStores(STORAGE, environment(url), loadPostgresBackend);
  const tableOf = (store: string) => store.split(' ').at(-1);

  it('reads every table of every store, trust records and MCP tool pins included', async () => {
    const url = await server().createDatabase('doctor_tables');
    await runHostOnce(url);
    const statuses = await check(url);
    expect(statuses.every((status) => status.status === 'ok')).toBe(true);
    expect(statuses.map((status) => tableOf(status.store))).toEqual(
      expect.arrayContaining([
        'public.trust_records',
        'public.mcp_tool_pins',
        'public.permission_grants',
        'public.sessions',
        'public.calls',
        'public.events',
        'public.quiver_serve_sessions',
        'public.quiver_replicas',
        'public.quiver_schema_versions',
      ]),
    );
  });

  it('reports a table a migrated store lacks as damaged, naming the table and its store', async () => {
    const url = await server().createDatabase('doctor_missing');
    await runHostOnce(url);
    const { pg } = await import('@quiver/test-storage/drivers');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('DROP TABLE mcp_tool_pins');
    await client.end();
    const missing = (await check(url)).filter((status) => status.status !== 'ok');
    expect(missing).toEqual([
      expect.objectContaining({
        status: 'damaged',
        problem: expect.stringMatching(/public\.mcp_tool_pins .* missing.* trust store .* version \d/),
        fix: expect.stringContaining('backup'),
      }),
    ]);
  });
});
