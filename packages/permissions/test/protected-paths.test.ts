import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionEngine, protectedPathList } from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceFixture();
  await fs.writeFile(path.join(fixture.workspace, 'quiver.yaml'), 'defaultPersonality: default\n');
  await fs.mkdir(path.join(fixture.workspace, 'personalities'));
  await fs.symlink('quiver.yaml', path.join(fixture.workspace, 'config-link.yaml'));
});
afterAll(async () => {
  await fixture.cleanup();
});

function engine(layers: Array<{ allow?: string[]; deny?: string[] }>) {
  return new PermissionEngine({
    workspace: fixture.workspace,
    layers,
    protectedPaths: [
      path.join(fixture.workspace, 'quiver.yaml'),
      'personalities',
      { path: path.join(fixture.workspace, '.quiver'), reason: 'Quiver keeps its data here' },
    ],
  });
}

const decide = (
  permissions: PermissionEngine,
  toolName: keyof typeof TOOL_SPECS,
  args: Record<string, string>,
) => permissions.decide({ toolName, args, spec: TOOL_SPECS[toolName] });

describe('protected paths', () => {
  it('deny writing quiver.yaml even when a blanket rule allows the write tool, and say why', async () => {
    const decision = await decide(engine([{ allow: ['write_file', 'edit_file'] }]), 'edit_file', {
      path: 'quiver.yaml',
    });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('"quiver.yaml" is protected: Quiver loads this file as configuration');
  });

  it('cover new files in a protected directory and every path that resolves into one', async () => {
    const permissions = engine([{ allow: ['write_file'] }]);
    for (const written of [
      'personalities/new.yaml',
      './personalities/x/y.yaml',
      'src/link/../personalities/a.yaml',
      'config-link.yaml',
      '.quiver/grants.db',
    ]) {
      expect((await decide(permissions, 'write_file', { path: written })).behavior, written).toBe('deny');
    }
  });

  it('leave reading protected files and writing elsewhere to the rules', async () => {
    const permissions = engine([{ allow: ['read_file', 'write_file'] }]);
    expect((await decide(permissions, 'read_file', { path: 'quiver.yaml' })).behavior).toBe('allow');
    expect((await decide(permissions, 'write_file', { path: 'src/c.ts' })).behavior).toBe('allow');
  });

  it('deny shell redirections into protected paths even when every command is allowed', async () => {
    const permissions = engine([{ allow: ['terminal'] }]);
    for (const command of [
      'echo x > quiver.yaml',
      'echo x >> personalities/a.yaml',
      'cd src && echo x > ../.quiver/x',
    ]) {
      const decision = await decide(permissions, 'terminal', { command });
      expect(decision.behavior, command).toBe('deny');
      expect(decision.reason, command).toContain('protected:');
    }
    expect((await decide(permissions, 'terminal', { command: 'echo x > src/out.txt' })).behavior).toBe(
      'allow',
    );
  });

  it('let programs that only read name protected files, and judge what they write as writes', async () => {
    const permissions = engine([{ allow: ['terminal'] }]);
    for (const command of [
      'cat quiver.yaml',
      'grep -n server quiver.yaml',
      'ls personalities',
      'wc -l quiver.yaml personalities/a.yaml',
      'diff quiver.yaml config-link.yaml',
    ]) {
      const decision = await decide(permissions, 'terminal', { command });
      expect(decision.behavior, command).toBe('allow');
    }
    for (const command of [
      'sort -o quiver.yaml src/a.ts',
      'uniq src/a.ts personalities/a.yaml',
      'cat src/a.ts > quiver.yaml',
      'tee quiver.yaml',
      'cp src/a.ts quiver.yaml',
      'sed -i s/a/b/ quiver.yaml',
      'env cat quiver.yaml',
      'xargs cat quiver.yaml',
    ]) {
      const decision = await decide(permissions, 'terminal', { command });
      expect(decision.behavior, command).not.toBe('allow');
    }
  });

  it('keep read denies on the arguments of programs that only read', async () => {
    const permissions = engine([{ allow: ['terminal'], deny: ['read_file(secrets/**)'] }]);
    const decision = await decide(permissions, 'terminal', { command: 'cat secrets/key' });
    expect(decision.behavior).toBe('deny');
  });

  it('read the shell working directory as the kernel does, so .. after a link cannot dodge them', async () => {
    // src/link -> ../secrets, so src/link/.. is the workspace root, where quiver.yaml is.
    const decision = await decide(engine([{ allow: ['terminal'] }]), 'terminal', {
      command: 'echo x > quiver.yaml',
      cwd: 'src/link/..',
    });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('protected:');
  });

  it('refuse to start with a protected path a person cannot mean', () => {
    expect(
      () => new PermissionEngine({ workspace: fixture.workspace, layers: [], protectedPaths: ['~/x'] }),
    ).toThrow(/must be absolute or relative to the workspace/);
  });
});

describe('file tool path arguments', () => {
  it('deny a leading ~ with a message that says what to write instead', async () => {
    const decision = await decide(engine([{ allow: ['read_file'] }]), 'read_file', { path: '~/.ssh/id_rsa' });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('Give a path relative to the workspace root, or an absolute path.');
  });

  it('judge .. after a symlinked directory where the kernel leads it', async () => {
    const decision = await decide(
      engine([{ allow: ['read_file'], deny: ['read_file(secrets/**)'] }]),
      'read_file',
      {
        path: 'src/link/../secrets/key',
      },
    );
    expect(decision.behavior).toBe('deny');
    expect(decision.subjects?.[0]?.subject).toBe('secrets/key');
  });
});

describe("Python's compiled-module cache", () => {
  it('is denied to write tools and shell writes whatever the rules allow, since Python runs it in place of the source', async () => {
    const permissions = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['write_file', 'terminal'] }],
      protectedPaths: protectedPathList({ dataDir: path.join(fixture.workspace, '.data'), loaded: [] }),
    });
    const pyc = 'tools/__pycache__/helper.cpython-311.pyc';
    const write = await decide(permissions, 'write_file', { path: pyc });
    expect(write.behavior).toBe('deny');
    expect(write.reason).toContain('Python runs a module');
    for (const command of [`cp /tmp/evil.pyc ${pyc}`, `echo x > ${pyc}`, 'mkdir -p tools/__pycache__'])
      expect((await decide(permissions, 'terminal', { command })).behavior, command).toBe('deny');
    expect((await decide(permissions, 'write_file', { path: 'tools/helper.py' })).behavior).toBe('allow');
  });
});

describe('programs that write the files their input names', () => {
  it('ask whatever rule allows them, since a patch or the index can name protected configuration', async () => {
    const permissions = new PermissionEngine({
      workspace: fixture.workspace,
      layers: [{ allow: ['terminal'] }],
      protectedPaths: protectedPathList({ dataDir: path.join(fixture.workspace, '.data'), loaded: [] }),
    });
    const behavior = async (command: string) => (await decide(permissions, 'terminal', { command })).behavior;
    for (const command of [
      'git apply fix.patch',
      'git apply --cached fix.patch',
      'patch -p1 -i fix.patch',
      'patch -p1 < fix.patch',
      'git am mail.mbox',
      'git checkout-index -a',
      'git read-tree -u HEAD',
      'git mktree < tree.txt',
      'git hash-object -w notes.txt',
      'git update-index --add --cacheinfo 100644,0123456789abcdef0123456789abcdef01234567,x',
      'unzip -o bundle.zip',
      'cpio -idv < bundle.cpio',
    ])
      expect(await behavior(command), command).toBe('ask');
    for (const command of [
      'git apply --check fix.patch',
      'git apply --stat fix.patch',
      'unzip -l bundle.zip',
    ])
      expect(await behavior(command), command).toBe('allow');
  });
});
