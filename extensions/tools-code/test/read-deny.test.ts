import { link, rename, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import type { ToolContext } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../src/tools/apply-patch.js';
import { editFileTool } from '../src/tools/edit-file.js';
import { fileSearchTool } from '../src/tools/file-search.js';
import { createGrepSearchTool } from '../src/tools/grep-search.js';
import { listDirTool } from '../src/tools/list-dir.js';
import { readFileTool } from '../src/tools/read-file.js';
import { writeFileTool } from '../src/tools/write-file.js';
import { createWorkspace, expectFailure, expectOk, type TestWorkspace } from './helpers/workspace.js';

const RULE = 'read_file(**/.env)';

/**
 * The host's read-deny decision is the port here (the real one comes from the permission engine
 * and is tested end to end through the CLI): a file named `.env` is denied.
 */
function denyingDotEnv(workspace: TestWorkspace, mode: 'read' | 'write' = 'read'): ToolContext {
  const base = workspace.context(mode);
  return {
    ...base,
    capabilities: {
      fs_reach: {
        roots: [workspace.root],
        mode,
        readDenied: (realPath) => (path.basename(realPath) === '.env' ? RULE : undefined),
      },
    },
  };
}

const ENGINES = [
  ['the JavaScript engine', createGrepSearchTool({ engine: 'javascript' }), it],
  ['ripgrep', createGrepSearchTool({ engine: 'ripgrep' }), itWithSystemTools(['rg'])],
] as const;

describe('read denies follow the file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
    await workspace.write('.env', 'API_KEY=SECRET-top\n');
    await workspace.write('sub/.env', 'API_KEY=SECRET-nested\n');
    await workspace.write('notes.md', 'no SECRET-free zone here\n');
    await link(workspace.at('.env'), workspace.at('innocent.txt'));
    await symlink(workspace.at('sub'), workspace.at('linked-sub'));
    await symlink(workspace.at('.env'), workspace.at('alias.txt'));
  });
  afterEach(() => workspace.cleanup());

  for (const [engine, tool, test] of ENGINES) {
    test(`grep_search with ${engine} returns nothing from .env, sub/.env or a hard link, and says what it withheld`, async () => {
      const result = await workspace.run(tool, { pattern: 'SECRET' }, denyingDotEnv(workspace));
      expectOk(result);
      expect(result.value).not.toContain('API_KEY');
      expect(result.value).toContain('notes.md:1:no SECRET-free zone here');
      expect(result.value).toMatch(/withheld: a read deny covers them \(\d+ by "read_file\(\*\*\/\.env\)"\)/);
      const structured = result.structured as { withheld: Array<{ rule: string; files: number }> };
      expect(structured.withheld.map((entry) => entry.rule)).toEqual([RULE]);
      expect(structured.withheld[0]?.files).toBeGreaterThanOrEqual(3);

      const throughLink = await workspace.run(
        tool,
        { pattern: 'SECRET', path: 'linked-sub' },
        denyingDotEnv(workspace),
      );
      expectOk(throughLink);
      expect(throughLink.value).not.toContain('API_KEY');
    });
  }

  it('file_search and list_dir leave denied files out and count them', async () => {
    const found = await workspace.run(fileSearchTool, { pattern: '*' }, denyingDotEnv(workspace));
    expectOk(found);
    expect(found.value.split('\n')).toEqual([
      'notes.md',
      '[3 entries withheld: a read deny covers them (3 by "read_file(**/.env)").]',
    ]);
    const listed = await workspace.run(listDirTool, { path: '.', depth: 2 }, denyingDotEnv(workspace));
    expectOk(listed);
    expect(listed.value.split('\n')).toEqual([
      './ (4 entries, depth 2)',
      'alias.txt  [symlink]',
      'linked-sub  [symlink]',
      'notes.md  (25 bytes)',
      'sub/',
      '[3 entries withheld: a read deny covers them (3 by "read_file(**/.env)").]',
    ]);
  });

  it('refuses to read, edit or patch a hard link to a denied file under its innocent name', async () => {
    const read = await workspace.run(readFileTool, { path: 'innocent.txt' }, denyingDotEnv(workspace));
    expectFailure(read);
    expect(read.code).toBe('not_permitted');
    expect(read.error).toContain(RULE);
    const edit = await workspace.run(
      editFileTool,
      { path: 'innocent.txt', old_string: 'SECRET', new_string: 'x' },
      denyingDotEnv(workspace, 'write'),
    );
    expectFailure(edit);
    expect(edit.code).toBe('not_permitted');
    const patch = [
      '*** Begin Patch',
      '*** Update File: innocent.txt',
      '*** Move to: moved.txt',
      '@@',
      '-API_KEY=SECRET-top',
      '+API_KEY=changed',
      '*** End Patch',
    ].join('\n');
    const patched = await workspace.run(applyPatchTool, { patch }, denyingDotEnv(workspace, 'write'));
    expectFailure(patched);
    expect(patched.code).toBe('not_permitted');
    expect(await workspace.text('.env')).toBe('API_KEY=SECRET-top\n');
  });

  it('denies a hard link made after the session first looked at the files', async () => {
    const first = await workspace.run(readFileTool, { path: 'notes.md' }, denyingDotEnv(workspace));
    expectOk(first);
    await link(workspace.at('sub/.env'), workspace.at('later.txt'));
    const read = await workspace.run(readFileTool, { path: 'later.txt' }, denyingDotEnv(workspace));
    expectFailure(read);
    expect(read.code).toBe('not_permitted');
  });

  it('keeps denying a denied file after it is renamed to an innocent name', async () => {
    const first = await workspace.run(readFileTool, { path: 'notes.md' }, denyingDotEnv(workspace));
    expectOk(first);
    await unlink(workspace.at('innocent.txt'));
    await rename(workspace.at('sub/.env'), workspace.at('renamed.txt'));
    const read = await workspace.run(readFileTool, { path: 'renamed.txt' }, denyingDotEnv(workspace));
    expectFailure(read);
    expect(read.code).toBe('not_permitted');
  });

  it('replaces a hard-linked file on write instead of writing through to its other name', async () => {
    await workspace.write('shared.txt', 'original\n');
    await link(workspace.at('shared.txt'), workspace.at('other-name.txt'));
    const ctx = denyingDotEnv(workspace, 'write');
    expectOk(await workspace.run(readFileTool, { path: 'shared.txt' }, ctx));
    expectOk(await workspace.run(writeFileTool, { path: 'shared.txt', content: 'replaced\n' }, ctx));
    expect(await workspace.text('shared.txt')).toBe('replaced\n');
    expect(await workspace.text('other-name.txt')).toBe('original\n');
  });
});
