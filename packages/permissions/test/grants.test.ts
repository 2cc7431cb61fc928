import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Database } from '@quiver/test-storage/drivers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionEngine, SessionGrantStore } from '../src/index.js';
import { openSqliteGrants } from './sqlite-grants.js';
import { TOOL_SPECS } from './workspace-fixture.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-grants-'));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

const gitPush = {
  toolName: 'terminal',
  args: { command: 'git push origin main' },
  spec: TOOL_SPECS.terminal,
};

describe('grants', () => {
  it('keeps a project grant across a restart', async () => {
    const first = openSqliteGrants(dataDir);
    const before = new PermissionEngine({ workspace: dataDir, layers: [], projectGrants: first });
    const asked = await before.decide(gitPush);
    expect(asked.behavior).toBe('ask');
    await before.grant(asked.suggestedRule as string, 'project');
    await first.close();

    const second = openSqliteGrants(dataDir);
    const after = new PermissionEngine({ workspace: dataDir, layers: [], projectGrants: second });
    expect(await after.decide(gitPush)).toMatchObject({ behavior: 'allow', rule: 'terminal(git push:*)' });
    expect(await second.list()).toEqual(['terminal(git push:*)']);
    await second.close();
  });

  it('stores grants in a versioned WAL database at <dataDir>/permissions.db', async () => {
    await openSqliteGrants(dataDir).close();
    const database = new Database(path.join(dataDir, 'permissions.db'), { readonly: true });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('user_version', { simple: true })).toBe(3);
    database.close();
  });

  it('keeps a session grant for later calls of the same session only', async () => {
    const sessionGrants = new SessionGrantStore();
    const engine = new PermissionEngine({ workspace: dataDir, layers: [], sessionGrants });
    engine.grant('terminal(git push:*)', 'session');
    expect((await engine.decide(gitPush)).behavior).toBe('allow');
    expect((await engine.decide(gitPush)).behavior).toBe('allow');
    const otherSession = new PermissionEngine({ workspace: dataDir, layers: [] });
    expect((await otherSession.decide(gitPush)).behavior).toBe('ask');
  });

  it('uses a once grant for the next decision only', async () => {
    const engine = new PermissionEngine({ workspace: dataDir, layers: [] });
    engine.grant('terminal(git push origin main)', 'once');
    expect((await engine.decide(gitPush)).behavior).toBe('allow');
    expect((await engine.decide(gitPush)).behavior).toBe('ask');
  });

  it('never lets a grant beat a deny', async () => {
    const engine = new PermissionEngine({ workspace: dataDir, layers: [{ deny: ['terminal(git push:*)'] }] });
    engine.grant('terminal(git push:*)', 'session');
    expect((await engine.decide(gitPush)).behavior).toBe('deny');
  });

  it('refuses a project grant when there is no store to save it in', () => {
    const engine = new PermissionEngine({ workspace: dataDir, layers: [] });
    expect(() => engine.grant('terminal(git push:*)', 'project')).toThrow(
      expect.objectContaining({ code: 'config_invalid' }),
    );
  });

  it('allows a compound command through its exact-command grant', async () => {
    const engine = new PermissionEngine({ workspace: dataDir, layers: [] });
    const request = {
      toolName: 'terminal',
      args: { command: 'make build && ./dist/run --fast > out.log' },
      spec: TOOL_SPECS.terminal,
    };
    const asked = await engine.decide(request);
    expect(asked.suggestedRule).toBe('terminal(make build && ./dist/run --fast > out.log)');
    engine.grant(asked.suggestedRule as string, 'session');
    expect((await engine.decide(request)).behavior).toBe('allow');
    const changed = { ...request, args: { command: 'make build && ./dist/run --fast > out.log\nrm -rf ~' } };
    expect((await engine.decide(changed)).behavior).toBe('ask');
  });
});
