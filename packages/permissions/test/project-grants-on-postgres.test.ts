import type { pg } from '@quiver/test-storage/drivers';
import { connectPostgres, openPostgresHostStore } from '@quiver/test-storage/postgres';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { PermissionEngine } from '../src/permission-engine.js';
import { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore } from '../src/project-grant-store.js';

/** The grant store of one project on a replica's pool, opened as the host opens it. */
async function openGrants(pool: pg.Pool, project: string): Promise<ProjectGrantStore> {
  return new ProjectGrantStore({
    store: await openPostgresHostStore(pool, 'permissions', PROJECT_GRANT_MIGRATIONS),
    project,
  });
}

describeWithSystemTools(['postgres', 'initdb'])('project grants on PostgreSQL shared by replicas', () => {
  const server = usePostgresServer();
  const pools: pg.Pool[] = [];

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  /** One replica's view: its own pool, store and engine, as a separate `quiver serve` would have. */
  async function replica(url: string, project = '/srv/project'): Promise<PermissionEngine> {
    const pool = await connectPostgres({ url });
    pools.push(pool);
    const projectGrants = await openGrants(pool, project);
    return new PermissionEngine({ workspace: '/srv/project', layers: [{}], projectGrants });
  }

  const deploy = { toolName: 'deploy', args: {} };

  it('honours on one replica a project grant given through another', async () => {
    const url = await server().freshDatabase('grants');
    const first = await replica(url);
    const second = await replica(url);
    expect((await second.decide(deploy)).behavior).toBe('ask');
    await first.grant('deploy', 'project', 'alice');
    expect(await second.decide(deploy)).toMatchObject({ behavior: 'allow' });
    // Who asked for it is kept with it, for every replica to show.
    const pool = await connectPostgres({ url });
    pools.push(pool);
    expect(await (await openGrants(pool, '/srv/project')).saved()).toEqual([
      { rule: 'deploy', caller: 'alice' },
    ]);
  });

  it('keeps the grants of one project away from another project on the same database', async () => {
    const url = await server().freshDatabase('grants');
    const mine = await replica(url, '/srv/mine');
    const theirs = await replica(url, '/srv/theirs');
    await mine.grant('deploy', 'project');
    expect((await mine.decide(deploy)).behavior).toBe('allow');
    expect((await theirs.decide(deploy)).behavior).toBe('ask');
  });

  it('forgets a removed grant on every replica and saves a rule once however often it is granted', async () => {
    const url = await server().freshDatabase('grants');
    const pool = await connectPostgres({ url });
    pools.push(pool);
    const store = await openGrants(pool, '/srv/project');
    const other = await replica(url);
    await Promise.all([store.add('deploy'), store.add('deploy'), store.add(' deploy ')]);
    expect(await store.list()).toEqual(['deploy']);
    expect(await store.remove('deploy')).toBe(true);
    expect(await store.remove('deploy')).toBe(false);
    expect((await other.decide(deploy)).behavior).toBe('ask');
  });

  it('refuses to save a malformed rule', async () => {
    const url = await server().freshDatabase('grants');
    const pool = await connectPostgres({ url });
    pools.push(pool);
    const store = await openGrants(pool, '/srv/project');
    await expect(store.add('terminal(unclosed')).rejects.toThrow();
    expect(await store.list()).toEqual([]);
  });
});
