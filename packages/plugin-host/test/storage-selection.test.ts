import { createServer } from 'node:net';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { afterEach, expect, it } from 'vitest';
import { QuiverHost } from '../src/index.js';
import { tempDir } from './helpers.js';
import { loadPostgresBackend } from './postgres-backend.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function workspace(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return dir;
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

it('refuses a storage URL written into quiver.yaml and asks for an environment variable instead', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    config: { storage: { kind: 'postgres', url: 'postgres://quiver:hunter2@db/quiver' } },
  });
  await expect(created).rejects.toMatchObject({ code: 'config_invalid' });
  const message = await created.catch((error: Error) => error.message);
  expect(message).toContain('storage.url');
  expect(message).toContain(`\${QUIVER_DATABASE_URL}`);
  expect(message).not.toContain('hunter2');
});

it('names the unset environment variable the storage URL should come from', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    environment: {},
    config: { storage: { kind: 'postgres', url: `\${QUIVER_TEAM_DATABASE_URL}` } },
  });
  await expect(created).rejects.toMatchObject({
    code: 'config_invalid',
    message: expect.stringContaining('QUIVER_TEAM_DATABASE_URL is not set'),
  });
});

it('refuses a storage URL taken from a variable set for another program', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    environment: { DATABASE_URL: 'postgres://app:secret@127.0.0.1:5432/app' },
    config: { storage: { kind: 'postgres', url: `\${DATABASE_URL}` } },
  });
  const error = (await created.catch((caught: unknown) => caught)) as Error;
  expect(error).toMatchObject({ code: 'config_invalid' });
  expect(error.message).toContain('storage.url');
  expect(error.message).toContain('QUIVER_');
});

it('refuses a project key written into quiver.yaml, so a checkout cannot join another project', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    environment: { QUIVER_TEAM_DATABASE_URL: 'postgres://quiver:hunter2@127.0.0.1:1/quiver' },
    config: { storage: { kind: 'postgres', url: `\${QUIVER_TEAM_DATABASE_URL}`, project: 'team-app' } },
  });
  const error = (await created.catch((caught: unknown) => caught)) as Error;
  expect(error).toMatchObject({ code: 'config_invalid' });
  expect(error.message).toContain('storage.project');
  expect(error.message).toContain(`\${QUIVER_PROJECT}`);
});

it('names the unset environment variable the project key should come from', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    environment: { QUIVER_TEAM_DATABASE_URL: 'postgres://quiver:hunter2@127.0.0.1:1/quiver' },
    config: {
      storage: { kind: 'postgres', url: `\${QUIVER_TEAM_DATABASE_URL}`, project: `\${QUIVER_TEAM_PROJECT}` },
    },
  });
  const error = (await created.catch((caught: unknown) => caught)) as Error & { fix?: string };
  expect(error).toMatchObject({ code: 'config_invalid' });
  expect(error.message).toContain('QUIVER_TEAM_PROJECT is not set');
  expect(error.fix).toContain('QUIVER_TEAM_PROJECT');
});

it('fails to start on an unreachable database, naming it without the password', async () => {
  const port = await closedPort();
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
    environment: { QUIVER_TEAM_DATABASE_URL: `postgres://quiver:hunter2@127.0.0.1:${port}/quiver` },
    config: { storage: { kind: 'postgres', url: `\${QUIVER_TEAM_DATABASE_URL}` } },
  });
  const error = (await created.catch((caught: unknown) => caught)) as Error & { fix?: string };
  expect(error).toMatchObject({ code: 'config_invalid' });
  expect(error.message).toContain(`postgres://quiver:***@127.0.0.1:${port}/quiver`);
  expect(error.fix).toContain('QUIVER_TEAM_DATABASE_URL');
  expect(`${error.message} ${error.fix}`).not.toContain('hunter2');
});

it('keeps SQLite under the data directory when quiver.yaml names no storage', async () => {
  const host = await QuiverHost.create({
    sqlite: sqliteBackend,
    postgres: loadPostgresBackend,
    workspace: workspace(),
    logger: silent,
  });
  try {
    expect(host.options.config.storage).toEqual({ kind: 'sqlite' });
    expect(host.options.sharedStorage).toBeUndefined();
  } finally {
    await host.close();
  }
});

it('says how to give the host a PostgreSQL backend when it was created without one', async () => {
  const created = QuiverHost.create({
    sqlite: sqliteBackend,
    workspace: workspace(),
    logger: silent,
    environment: { QUIVER_TEAM_DATABASE_URL: 'postgres://quiver@127.0.0.1:1/quiver' },
    config: { storage: { kind: 'postgres', url: `\${QUIVER_TEAM_DATABASE_URL}` } },
  });
  await expect(created).rejects.toMatchObject({ code: 'config_invalid' });
  const error = (await created.catch((caught: unknown) => caught)) as { message: string; fix: string };
  expect(error.message).toContain('without a PostgreSQL backend');
  expect(error.fix).toContain('@quiver/wiring');
});
