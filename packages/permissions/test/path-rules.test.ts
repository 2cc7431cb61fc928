import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeWorkspacePath, PermissionEngine } from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

describe('normalizeWorkspacePath', () => {
  it('resolves symlinks, folds .. and drops trailing slashes', () => {
    const { workspace } = fixture;
    expect(normalizeWorkspacePath('src/link/key', workspace)).toBe('secrets/key');
    expect(normalizeWorkspacePath('src/abslink/', workspace)).toBe('secrets');
    expect(normalizeWorkspacePath('./src/../src/a.ts', workspace)).toBe('src/a.ts');
    expect(normalizeWorkspacePath(path.join(workspace, 'src', 'a.ts'), workspace)).toBe('src/a.ts');
    expect(normalizeWorkspacePath('.', workspace)).toBe('.');
  });

  it('follows a symlink before folding the .. after it, as the kernel does', () => {
    expect(normalizeWorkspacePath('src/link/../src/a.ts', fixture.workspace)).toBe('src/a.ts');
    expect(normalizeWorkspacePath('src/link/../secrets/key', fixture.workspace)).toBe('secrets/key');
  });

  it('resolves the deepest existing parent of a path that does not exist yet', () => {
    expect(normalizeWorkspacePath('src/link/new/deeper/file.txt', fixture.workspace)).toBe(
      'secrets/new/deeper/file.txt',
    );
  });

  it('gives absolute paths for anything outside the workspace', () => {
    expect(normalizeWorkspacePath('../outside/src/a.ts', fixture.workspace)).toBe(
      path.join(fixture.root, 'outside', 'src', 'a.ts'),
    );
    expect(normalizeWorkspacePath('/etc/hosts', fixture.workspace)).toBe('/etc/hosts');
  });

  it('returns for a symlink loop instead of hanging', async () => {
    await fs.symlink('loop-b', path.join(fixture.workspace, 'loop-a'));
    await fs.symlink('loop-a', path.join(fixture.workspace, 'loop-b'));
    expect(typeof normalizeWorkspacePath('loop-a/x', fixture.workspace)).toBe('string');
  });
});

describe('path rules', () => {
  function engine(rules: { allow?: string[]; deny?: string[] }) {
    return new PermissionEngine({ workspace: fixture.workspace, layers: [rules] });
  }

  it('allows src/** but never ../outside/src', async () => {
    const permissions = engine({ allow: ['read_file(src/**)'] });
    expect(
      (
        await permissions.decide({
          toolName: 'read_file',
          args: { path: 'src/a.ts' },
          spec: TOOL_SPECS.read_file,
        })
      ).behavior,
    ).toBe('allow');
    expect(
      (
        await permissions.decide({
          toolName: 'read_file',
          args: { path: '../outside/src/a.ts' },
          spec: TOOL_SPECS.read_file,
        })
      ).behavior,
    ).toBe('ask');
  });

  it('denies a path reached through a symlink in a real workspace', async () => {
    const permissions = engine({ allow: ['read_file(src/**)'], deny: ['read_file(secrets)'] });
    const decision = await permissions.decide({
      toolName: 'read_file',
      args: { path: 'src/link/key' },
      spec: TOOL_SPECS.read_file,
    });
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'read_file(secrets)' });
  });

  it('applies a read deny written for one tool to other read tools and to shell arguments', async () => {
    const permissions = engine({ allow: ['grep', 'terminal(cat:*)'], deny: ['read_file(secrets/**)'] });
    expect(
      (await permissions.decide({ toolName: 'grep', args: { path: 'secrets/key' }, spec: TOOL_SPECS.grep }))
        .behavior,
    ).toBe('deny');
    expect(
      (
        await permissions.decide({
          toolName: 'terminal',
          args: { command: 'cat src/link/key' },
          spec: TOOL_SPECS.terminal,
        })
      ).behavior,
    ).toBe('deny');
    expect(
      (
        await permissions.decide({
          toolName: 'terminal',
          args: { command: 'cat src/a.ts' },
          spec: TOOL_SPECS.terminal,
        })
      ).behavior,
    ).toBe('allow');
  });

  it('learns a tool kind from its spec, so denies on a custom read tool cover read_file', async () => {
    const permissions = engine({ allow: ['read_file'], deny: ['view_source(secrets/**)'] });
    await permissions.decide({
      toolName: 'view_source',
      args: { path: 'src/a.ts' },
      spec: TOOL_SPECS.read_file,
    });
    expect(
      (
        await permissions.decide({
          toolName: 'read_file',
          args: { path: 'secrets/key' },
          spec: TOOL_SPECS.read_file,
        })
      ).behavior,
    ).toBe('deny');
  });

  it('treats a path deny on a tool it has not seen yet as a deny on that path everywhere', async () => {
    const permissions = engine({
      allow: ['terminal(cat:*)', 'read_file'],
      deny: ['mcp__files__read(secrets/**)'],
    });
    expect(
      (
        await permissions.decide({
          toolName: 'terminal',
          args: { command: 'cat secrets/key' },
          spec: TOOL_SPECS.terminal,
        })
      ).behavior,
    ).toBe('deny');
    expect(
      (
        await permissions.decide({
          toolName: 'read_file',
          args: { path: 'src/link/key' },
          spec: TOOL_SPECS.read_file,
        })
      ).behavior,
    ).toBe('deny');
  });

  it('checks shell redirections against write denies and write allows', async () => {
    const permissions = engine({
      allow: ['terminal(echo:*)', 'write_file(/tmp/**)', 'write_file(src/**)'],
      deny: ['write_file(secrets/**)'],
    });
    const decide = async (command: string) =>
      (await permissions.decide({ toolName: 'terminal', args: { command }, spec: TOOL_SPECS.terminal }))
        .behavior;
    expect(await decide('echo x > src/link/key')).toBe('deny');
    expect(await decide('echo x > /tmp/quiver-permissions-test.txt')).toBe('allow');
    expect(await decide('echo x > src/out.txt')).toBe('allow');
    expect(await decide('echo x > README.md')).toBe('ask');
  });

  it('resolves shell paths from the working directory the tool reports', async () => {
    const permissions = engine({ allow: ['terminal(cat:*)'], deny: ['read_file(secrets/**)'] });
    const decision = await permissions.decide({
      toolName: 'terminal',
      args: { command: 'cat key', cwd: 'secrets' },
      spec: TOOL_SPECS.terminal,
    });
    expect(decision.behavior).toBe('deny');
  });
});
