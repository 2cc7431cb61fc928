import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sqliteDriverPath } from '@quiver/test-storage/drivers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionEngine, type ProjectGrantStore } from '../src/index.js';
import { openSqliteGrants } from './sqlite-grants.js';
import { TOOL_SPECS } from './workspace-fixture.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Another process writing the grant table, as `quiver permit` does from a second terminal. */
async function inOtherProcess(dataDir: string, sql: string, ...params: string[]): Promise<void> {
  const script = `
    const Database = require(${JSON.stringify(sqliteDriverPath)});
    const db = new Database(process.argv[1]);
    db.prepare(process.argv[2]).run(...process.argv.slice(3));
    db.close();`;
  await run(process.execPath, ['-e', script, path.join(dataDir, 'permissions.db'), sql, ...params], {
    cwd: packageDir,
  });
}

let dataDir: string;
const stores: ProjectGrantStore[] = [];
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-project-grants-'));
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function openStore(): ProjectGrantStore {
  const store = openSqliteGrants(dataDir);
  stores.push(store);
  return store;
}

const gitPush = {
  toolName: 'terminal',
  args: { command: 'git push origin main' },
  spec: TOOL_SPECS.terminal,
};

describe('project grants shared between processes', () => {
  it('allows a call as soon as another process saves a grant for it, without reopening the store', async () => {
    const engine = new PermissionEngine({ workspace: dataDir, layers: [], projectGrants: openStore() });
    expect((await engine.decide(gitPush)).behavior).toBe('ask');
    await inOtherProcess(
      dataDir,
      "INSERT INTO permission_grants (project, rule, granted_at) VALUES ('', ?, ?)",
      'terminal(git push:*)',
      new Date().toISOString(),
    );
    expect(await engine.decide(gitPush)).toMatchObject({ behavior: 'allow', rule: 'terminal(git push:*)' });
  });

  it('stops allowing a call once another process revokes its grant', async () => {
    const store = openStore();
    const engine = new PermissionEngine({ workspace: dataDir, layers: [], projectGrants: store });
    await engine.grant('terminal(git push:*)', 'project');
    expect((await engine.decide(gitPush)).behavior).toBe('allow');
    await inOtherProcess(dataDir, 'DELETE FROM permission_grants WHERE rule = ?', 'terminal(git push:*)');
    expect((await engine.decide(gitPush)).behavior).toBe('ask');
    expect(await store.list()).toEqual([]);
  });

  it('sees grants added and removed through a second store on the same data directory', async () => {
    const first = openStore();
    const second = openStore();
    expect(await first.list()).toEqual([]);
    await second.add('read_file(src/**)');
    await second.add('terminal(git status)');
    expect(await first.list()).toEqual(['read_file(src/**)', 'terminal(git status)']);
    expect(await first.remove('read_file(src/**)')).toBe(true);
    expect(await second.list()).toEqual(['terminal(git status)']);
    expect(await first.list()).toEqual(['terminal(git status)']);
  });

  it('hands out a copy, so a caller changing the list changes nothing the engine decides by', async () => {
    const store = openStore();
    await store.add('terminal(git status)');
    ((await store.list()) as string[]).push('terminal(rm -rf /)');
    expect(await store.list()).toEqual(['terminal(git status)']);
  });

  it('keeps the grants of a store saved before grants had a project column', async () => {
    await fs.mkdir(dataDir, { recursive: true });
    const script = `
      const Database = require(${JSON.stringify(sqliteDriverPath)});
      const db = new Database(process.argv[1]);
      db.exec('CREATE TABLE permission_grants (rule TEXT PRIMARY KEY, granted_at TEXT NOT NULL)');
      db.prepare('INSERT INTO permission_grants VALUES (?, ?)').run('terminal(git push:*)', '2026-01-01T00:00:00.000Z');
      db.pragma('user_version = 1');
      db.close();`;
    await run(process.execPath, ['-e', script, path.join(dataDir, 'permissions.db')], { cwd: packageDir });
    const store = openStore();
    const engine = new PermissionEngine({ workspace: dataDir, layers: [], projectGrants: store });
    expect(await engine.decide(gitPush)).toMatchObject({ behavior: 'allow', rule: 'terminal(git push:*)' });
    await store.add('read_file(src/**)');
    expect(await store.list()).toEqual(['terminal(git push:*)', 'read_file(src/**)']);
  });
});
