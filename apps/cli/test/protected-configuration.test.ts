import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createQuiver } from '@quiver/wiring';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver as runCli, tempDirs } from './helpers.js';
import { attackProtectedTargets, type ProtectedTarget, prepareTargets } from './protected-attacks.js';

const NESTED_REPOSITORIES: ProtectedTarget[] = [
  { path: '.git/config', existing: true },
  { path: '.git/hooks/post-checkout', existing: false },
  { path: 'sub/.git/config', existing: true },
  { path: 'sub/.git/hooks/pre-commit', existing: false },
  // A `.git` file pointing elsewhere makes git use that directory's config and hooks.
  { path: 'other/.git', existing: false },
];

describe('no tool call changes what Quiver loads as configuration', () => {
  const dirs = tempDirs('quiver-protected-');
  afterEach(dirs.cleanup);

  it('lets the same attacks change an ordinary file, so an escape would be seen', async () => {
    const workspace = dirs.make();
    const targets: ProtectedTarget[] = [{ path: 'notes/free.txt', existing: true }];
    prepareTargets(workspace, targets);
    const quiver = await createQuiver({ workspace, discoverConfig: false });
    try {
      const escapes = await attackProtectedTargets(quiver, workspace, targets);
      const tools = new Set(escapes.map((line) => line.split(' ')[0]));
      expect([...tools].sort()).toEqual(['apply_patch', 'edit_file', 'multi_edit', 'terminal', 'write_file']);
    } finally {
      await quiver.close();
    }
  }, 120_000);

  it('holds under the embedded default personality for every write tool, path form and shell write', async () => {
    const workspace = dirs.make();
    mkdirSync(path.join(workspace, 'personalities'));
    const targets: ProtectedTarget[] = [
      { path: 'quiver.yaml', existing: false },
      { path: 'personalities/x.yaml', existing: false },
      { path: '.quiver/notes.txt', existing: true },
      { path: '.quiver/new.txt', existing: false },
      ...NESTED_REPOSITORIES,
    ];
    prepareTargets(workspace, targets);
    const quiver = await createQuiver({ workspace, discoverConfig: false });
    try {
      expect(await attackProtectedTargets(quiver, workspace, targets)).toEqual([]);
    } finally {
      await quiver.close();
    }
  }, 120_000);

  it('holds under the personality quiver init writes, with the project trusted', async () => {
    const workspace = dirs.make();
    const init = await runCli(['init'], { cwd: workspace });
    expect(init.code, init.stderr).toBe(0);
    const targets: ProtectedTarget[] = [
      { path: 'quiver.yaml', existing: true },
      { path: 'personalities/default.yaml', existing: true },
      { path: 'personalities/x.yaml', existing: false },
      { path: '.quiver/notes.txt', existing: true },
      ...NESTED_REPOSITORIES,
    ];
    prepareTargets(workspace, targets);
    const quiver = await createQuiver({ workspace, trustProject: true });
    try {
      expect(await attackProtectedTargets(quiver, workspace, targets)).toEqual([]);
    } finally {
      await quiver.close();
    }
  }, 120_000);

  it('explains in quiver permit that a configuration file is protected', async () => {
    const workspace = dirs.make();
    const init = await runCli(['init'], { cwd: workspace });
    expect(init.code, init.stderr).toBe(0);
    const permit = await runCli(
      [
        '--trust-project',
        'permit',
        'edit_file',
        '-a',
        JSON.stringify({ path: 'personalities/default.yaml', old_string: 'a', new_string: 'b' }),
      ],
      { cwd: workspace },
    );
    expect(permit.stdout, permit.stderr).toContain('deny');
    expect(permit.stdout).toContain('protected: Quiver loads this file as configuration');
  });
});
