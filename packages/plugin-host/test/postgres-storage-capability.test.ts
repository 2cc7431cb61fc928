import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import type { CapabilityBackend, PortableMigrations } from '@quiver/types';
import { afterEach, expect, it } from 'vitest';
import { QuiverHost } from '../src/index.js';
import { tempDir } from './helpers.js';
import { loadPostgresBackend } from './postgres-backend.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const BOARD: PortableMigrations = {
  sqlite: ['CREATE TABLE cards (title TEXT NOT NULL)'],
  postgres: ['CREATE TABLE cards (title TEXT NOT NULL)'],
};

describeWithSystemTools(['postgres', 'initdb'])('the storage capability of a host on PostgreSQL', () => {
  const server = usePostgresServer();
  const hosts: QuiverHost[] = [];
  const cleanups: Array<() => void> = [];

  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function replica(url: string): Promise<QuiverHost> {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      postgres: loadPostgresBackend,
      workspace: dir,
      logger: silent,
      environment: { QUIVER_TEAM_DATABASE_URL: url, QUIVER_TEAM_PROJECT: 'team-board' },
      config: {
        storage: {
          kind: 'postgres',
          url: `\${QUIVER_TEAM_DATABASE_URL}`,
          project: `\${QUIVER_TEAM_PROJECT}`,
        },
      },
      // The embedder's SQLite default, which shared storage must replace.
      backends: () => [
        {
          capability: 'storage',
          resolve: () => {
            throw new Error('the SQLite storage backend was used on a PostgreSQL host');
          },
        } satisfies CapabilityBackend<'storage'> as CapabilityBackend,
      ],
    });
    hosts.push(host);
    return host;
  }

  async function projectStore(host: QuiverHost) {
    const storage = await host.backends.resolve({
      capability: 'storage',
      declaration: { scopes: ['project'] },
      toolName: 'board_add',
      sessionId: 'session-1',
      personalityId: 'default',
      agentId: 'main',
    });
    return storage.connect('board', { scope: 'project', migrations: BOARD });
  }

  it('gives tools on two replicas of one project the same PostgreSQL store', async () => {
    const url = await server().createDatabase('shared_capability');
    const [first, second] = [await replica(url), await replica(url)];
    const writer = await projectStore(first);
    expect(writer.dialect).toBe('postgres');
    await writer.run('INSERT INTO cards (title) VALUES (?)', ['written on replica one']);
    const reader = await projectStore(second);
    expect(await reader.all('SELECT title FROM cards')).toEqual([{ title: 'written on replica one' }]);
  });
});
