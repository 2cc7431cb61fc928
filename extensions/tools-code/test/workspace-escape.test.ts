import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Tool } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyPatchTool,
  editFileTool,
  fileSearchTool,
  grepSearchTool,
  listDirTool,
  multiEditTool,
  readFileTool,
  writeFileTool,
} from '../src/index.js';
import { createWorkspace, type TestWorkspace } from './helpers/workspace.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';

/** Paths a model might use to reach outside; placeholders are filled in per run. Every one must be refused. */
const ESCAPE_ATTEMPTS: ReadonlyArray<{ name: string; path: string }> = [
  { name: 'parent traversal', path: '../{outsideName}/secret.txt' },
  { name: 'deep parent traversal', path: 'src/../../{outsideName}/secret.txt' },
  { name: 'absolute path outside', path: '{outside}/secret.txt' },
  { name: 'absolute system file', path: '/etc/passwd' },
  { name: 'symlink to an outside file', path: 'link-to-secret' },
  { name: 'symlink to an outside directory', path: 'link-to-outside/secret.txt' },
  { name: 'chain of symlinks ending outside', path: 'chain-1' },
  { name: 'proc self root', path: '/proc/self/root{outside}/secret.txt' },
  { name: 'proc self cwd', path: '/proc/self/cwd/secret.txt' },
  { name: 'NUL byte', path: 'src/a.txt\u0000../../etc/passwd' },
  { name: 'trailing slash traversal', path: '../{outsideName}/' },
  { name: 'dangling symlink pointing outside', path: 'dangling-out' },
  { name: 'new file under an outside symlink', path: 'link-to-outside/new-file.txt' },
  { name: 'home directory', path: '~/secret.txt' },
  { name: 'home directory of root', path: '~root/.bashrc' },
  { name: 'symlinked directory then traversal', path: 'link-to-outside/../{outsideName}/secret.txt' },
];

/**
 * Paths that look like escapes but name something inside the workspace: percent escapes are not
 * decoded. They may succeed, but only inside the workspace.
 */
const LITERAL_INSIDE: ReadonlyArray<{ name: string; path: string }> = [
  { name: 'URL-encoded traversal', path: '%2e%2e/{outsideName}/secret.txt' },
  { name: 'URL-encoded slash', path: '..%2f{outsideName}%2fsecret.txt' },
];

interface ToolCase {
  tool: Tool;
  args: (target: string) => Record<string, unknown>;
}

const TOOL_CASES: ReadonlyArray<ToolCase> = [
  { tool: readFileTool, args: (target) => ({ path: target }) },
  { tool: listDirTool, args: (target) => ({ path: target }) },
  { tool: fileSearchTool, args: (target) => ({ path: target, pattern: '**/*' }) },
  { tool: grepSearchTool, args: (target) => ({ path: target, pattern: 'SECRET' }) },
  { tool: writeFileTool, args: (target) => ({ path: target, content: 'pwned\n' }) },
  { tool: editFileTool, args: (target) => ({ path: target, old_string: SECRET, new_string: 'pwned' }) },
  {
    tool: multiEditTool,
    args: (target) => ({ path: target, edits: [{ old_string: SECRET, new_string: 'pwned' }] }),
  },
  {
    tool: applyPatchTool,
    args: (target) => ({
      patch: `*** Begin Patch\n*** Update File: ${target}\n@@\n-${SECRET}\n+pwned\n*** End Patch`,
    }),
  },
  {
    tool: applyPatchTool,
    args: (target) => ({ patch: `*** Begin Patch\n*** Add File: ${target}\n+pwned\n*** End Patch` }),
  },
  {
    tool: applyPatchTool,
    args: (target) => ({ patch: `*** Begin Patch\n*** Delete File: ${target}\n*** End Patch` }),
  },
];

describe('workspace boundary', () => {
  let workspace: TestWorkspace;
  let outside: string;

  beforeAll(async () => {
    workspace = await createWorkspace();
    outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-outside-')));
    await writeFile(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    await workspace.write('src/a.txt', 'inside\n');
    await symlink(path.join(outside, 'secret.txt'), workspace.at('link-to-secret'));
    await symlink(outside, workspace.at('link-to-outside'));
    await symlink(workspace.at('chain-2'), workspace.at('chain-1'));
    await symlink(workspace.at('link-to-secret'), workspace.at('chain-2'));
    await symlink(path.join(outside, 'not-yet-there.txt'), workspace.at('dangling-out'));
  });

  afterAll(async () => {
    await workspace.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  const concrete = (template: string) =>
    template.replaceAll('{outsideName}', path.basename(outside)).replaceAll('{outside}', outside);

  it('refuses every escape attempt with every tool, and the outside stays untouched', async () => {
    const escaped: string[] = [];
    for (const attempt of ESCAPE_ATTEMPTS) {
      for (const toolCase of TOOL_CASES) {
        const result = await workspace.run(toolCase.tool, toolCase.args(concrete(attempt.path)));
        if (result.ok) escaped.push(`${toolCase.tool.name} ← ${attempt.name}: ${result.value.slice(0, 80)}`);
        else if (!['path_outside_workspace', 'input_invalid'].includes(result.code))
          escaped.push(`${toolCase.tool.name} ← ${attempt.name}: [${result.code}] ${result.error}`);
      }
    }
    expect(escaped).toEqual([]);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
  });

  it('keeps percent-escaped look-alike paths inside the workspace', async () => {
    const leaks: string[] = [];
    for (const attempt of LITERAL_INSIDE) {
      for (const toolCase of TOOL_CASES) {
        const result = await workspace.run(toolCase.tool, toolCase.args(concrete(attempt.path)));
        // Failures may quote the patch the test sent (which names the secret); outputs must not.
        if (result.ok && (result.value + JSON.stringify(result.structured ?? '')).includes(SECRET))
          leaks.push(`${toolCase.tool.name} ← ${attempt.name}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
  });

  it('names the resolved real path when it refuses a symlink that leads outside', async () => {
    const result = await workspace.run(readFileTool, { path: 'link-to-secret' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('path_outside_workspace');
    expect(result.error).toContain(path.join(outside, 'secret.txt'));
  });

  it('treats a percent-encoded name as a literal file inside the workspace', async () => {
    await mkdir(workspace.at('%2e%2e'), { recursive: true });
    await workspace.write('%2e%2e/literal.txt', 'literal\n');
    const result = await workspace.run(readFileTool, { path: '%2e%2e/literal.txt' });
    expect(result.ok && result.value).toContain('literal');
  });

  it('follows symlinks that stay inside the workspace', async () => {
    await workspace.write('real/target.txt', 'reachable\n');
    await symlink(workspace.at('real/target.txt'), workspace.at('inner-link'));
    const read = await workspace.run(readFileTool, { path: 'inner-link' });
    expect(read.ok && read.value).toContain('reachable');
    const edit = await workspace.run(editFileTool, {
      path: 'inner-link',
      old_string: 'reachable',
      new_string: 'edited',
    });
    expect(edit.ok).toBe(true);
    expect(await workspace.text('real/target.txt')).toBe('edited\n');
  });

  it('accepts paths in a second root and roots given through a symlink', async () => {
    const second = await createWorkspace('quiver-second-root-');
    try {
      await second.write('notes.txt', 'second root\n');
      await symlink(workspace.root, `${second.root}-alias`);
      const ctx = {
        ...workspace.context(),
        capabilities: { fs_reach: { roots: [`${second.root}-alias`, second.root], mode: 'write' as const } },
      };
      const viaAlias = await workspace.run(readFileTool, { path: 'src/a.txt' }, ctx);
      const inSecond = await workspace.run(readFileTool, { path: second.at('notes.txt') }, ctx);
      expect(viaAlias.ok && viaAlias.value).toContain('src/a.txt (lines 1-1 of 1');
      expect(inSecond.ok && inSecond.value).toContain(`${second.at('notes.txt')} (lines 1-1 of 1`);
    } finally {
      await rm(`${second.root}-alias`, { force: true });
      await second.cleanup();
    }
  });

  it('fails closed when the host granted no workspace root', async () => {
    const ctx = { ...workspace.context(), capabilities: {} };
    const result = await workspace.run(readFileTool, { path: 'src/a.txt' }, ctx);
    expect(result.ok).toBe(false);
  });
});
