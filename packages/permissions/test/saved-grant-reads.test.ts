import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionEngine, type ProjectGrants } from '../src/index.js';
import { openSqliteGrants } from './sqlite-grants.js';
import { TOOL_SPECS } from './workspace-fixture.js';

let workspace: string;
beforeEach(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-saved-grant-reads-'));
});
afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

const read = (file: string) => ({ toolName: 'read_file', args: { path: file }, spec: TOOL_SPECS.read_file });

/** A shared grant database (several replicas) that answers with `rules` once `answer` is called. */
function sharedGrants(rules: string[]): ProjectGrants & { reads: number; answer(): void } {
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const grants = {
    reads: 0,
    answer: () => answer(),
    add: () => {},
    remove: () => false,
    list: async () => {
      grants.reads += 1;
      await answered;
      return rules;
    },
    close: () => {},
  };
  return grants;
}

describe('saved grants in permission decisions', () => {
  it('allows what the personality allows while the shared grant database has not answered', async () => {
    const grants = sharedGrants(['read_file(docs/**)']);
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['read_file(src/**)'] }],
      projectGrants: grants,
    });
    expect(await engine.decide(read('src/app.ts'))).toMatchObject({
      behavior: 'allow',
      rule: 'read_file(src/**)',
    });
    // What only a saved grant allows waits for the database, and the grant then allows it.
    const saved = engine.decide(read('docs/guide.md'));
    grants.answer();
    expect(await saved).toMatchObject({ behavior: 'allow', rule: 'read_file(docs/**)' });
    expect(grants.reads).toBe(1);
  });

  it('names the personality’s rule, not a broader saved grant, when both allow a call', async () => {
    const store = openSqliteGrants(workspace);
    try {
      await store.add('read_file');
      await store.add('mcp__github');
      const engine = new PermissionEngine({
        workspace,
        layers: [{ allow: ['read_file(src/**)', 'mcp__github__get_issue'] }],
        projectGrants: store,
      });
      expect(await engine.decide(read('src/app.ts'))).toMatchObject({ rule: 'read_file(src/**)' });
      expect(await engine.decide(read('README.md'))).toMatchObject({ behavior: 'allow', rule: 'read_file' });
      expect(await engine.decide({ toolName: 'get_issue', args: {}, mcpServer: 'github' })).toMatchObject({
        behavior: 'allow',
        rule: 'mcp__github__get_issue',
      });
    } finally {
      await store.close();
    }
  });

  it('stops allowing at the next decision once another process revokes the grant', async () => {
    const store = openSqliteGrants(workspace);
    const permit = openSqliteGrants(workspace);
    try {
      const engine = new PermissionEngine({
        workspace,
        layers: [{ allow: ['read_file(src/**)'] }],
        projectGrants: store,
      });
      await permit.add('read_file(docs/**)');
      expect(await engine.decide(read('docs/guide.md'))).toMatchObject({ behavior: 'allow' });
      expect(await engine.decide(read('src/app.ts'))).toMatchObject({ behavior: 'allow' });
      await permit.remove('read_file(docs/**)');
      expect(await engine.decide(read('docs/guide.md'))).toMatchObject({ behavior: 'ask' });
    } finally {
      await permit.close();
      await store.close();
    }
  });

  it('spends a once grant on the next decision even when the personality allows that call', async () => {
    const store = openSqliteGrants(workspace);
    try {
      const engine = new PermissionEngine({
        workspace,
        layers: [{ allow: ['read_file(src/**)'] }],
        projectGrants: store,
      });
      engine.grant('read_file(docs/**)', 'once');
      expect(await engine.decide(read('src/app.ts'))).toMatchObject({ behavior: 'allow' });
      expect(await engine.decide(read('docs/guide.md'))).toMatchObject({ behavior: 'ask' });
    } finally {
      await store.close();
    }
  });

  it('never lets a saved grant beat a deny, a protected path or an ask rule', async () => {
    const store = openSqliteGrants(workspace);
    try {
      await store.add('read_file');
      await store.add('write_file');
      const engine = new PermissionEngine({
        workspace,
        layers: [{ deny: ['read_file(secrets/**)'], ask: ['read_file(notes/**)'] }],
        projectGrants: store,
        protectedPaths: ['quiver.yaml'],
      });
      expect(await engine.decide(read('secrets/key'))).toMatchObject({ behavior: 'deny' });
      expect(await engine.decide(read('notes/today.md'))).toMatchObject({ behavior: 'ask' });
      expect(
        await engine.decide({
          toolName: 'write_file',
          args: { path: 'quiver.yaml' },
          spec: TOOL_SPECS.write_file,
        }),
      ).toMatchObject({ behavior: 'deny' });
    } finally {
      await store.close();
    }
  });
});
