import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { harnessTools } from '@quiver/runtime';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createQuiver, createWorktreeHelpers, type Quiver } from '../src/index.js';

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);

describeWithSystemTools(['git'])('worktree tools a harness declares', () => {
  let workspace: string;
  let quiver: Quiver;
  let hookRan: string;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-worktrees-')));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: workspace,
      });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(workspace, 'README.md'), 'hello\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'first');
    // A hook git would run on checkout: the hardening must keep it from running.
    hookRan = path.join(workspace, 'hook-ran');
    const hook = path.join(workspace, '.git/hooks/post-checkout');
    writeFileSync(hook, `#!/bin/sh\ntouch ${hookRan}\n`);
    chmodSync(hook, 0o755);
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('creates and removes a worktree with git hardened, and only for a harness that offers worktrees', async () => {
    expect(names(quiver.createSession().pool())).not.toContain('worktree_create');
    const worktrees = createWorktreeHelpers({ root: workspace, dataDir: quiver.host.dataDir });
    const session = quiver.createSession({
      externalTools: harnessTools({ worktrees }),
      permissions: { allow: ['worktree_create', 'worktree_remove'] },
    });
    expect(names(session.createChild({ agent: 'async' }).pool())).toEqual(
      expect.arrayContaining(['worktree_create', 'worktree_remove']),
    );
    const [made, badName] = await session.execute([
      { name: 'worktree_create', args: { name: 'feature-a' } },
      { name: 'worktree_create', args: { name: '../escape' } },
    ]);
    expect(made).toMatchObject({ ok: true, structured: { branch: 'worktree/feature-a' } });
    const where = path.join(workspace, '.worktrees/feature-a');
    expect(readFileSync(path.join(where, 'README.md'), 'utf8')).toBe('hello\n');
    expect(existsSync(hookRan)).toBe(false);
    expect(badName).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(!badName?.ok && badName?.error).toContain('is not allowed');
    const [removed] = await session.execute([{ name: 'worktree_remove', args: { name: 'feature-a' } }]);
    expect(removed).toMatchObject({ ok: true });
    expect(existsSync(where)).toBe(false);
    // Headless and without a rule, a worktree change is denied like any client tool that changes things.
    const [denied] = await quiver
      .createSession({ externalTools: harnessTools({ worktrees }) })
      .execute([{ name: 'worktree_create', args: { name: 'feature-b' } }]);
    expect(denied).toMatchObject({ ok: false, code: 'not_permitted' });
  });
});
