import { linkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quiver, tempDir, write } from './helpers.js';
import { connectStdio, textOf } from './serve-fixtures.js';

/**
 * Under the default personality (which denies reading `.env` at any depth), a search for the
 * text of `.env` finds nothing of it: not `.env`, not `sub/.env`, not a hard link to it under an
 * innocent name, not through a symlink, through `quiver call` and through `quiver serve`.
 */
/** The default personality's denies: `read_file(.env)` and `read_file(**\/.env)`. */
const DOT_ENV_RULE = /read_file\((\*\*\/)?\.env\)/;

function secretWorkspace(): { dir: string; cleanup: () => void } {
  const workspace = tempDir('quiver-deny-');
  const { dir } = workspace;
  write(path.join(dir, '.env'), 'API_KEY=SECRET-top\n');
  write(path.join(dir, 'sub/.env'), 'API_KEY=SECRET-nested\n');
  write(path.join(dir, 'notes.md'), 'the word SECRET in public notes\n');
  linkSync(path.join(dir, '.env'), path.join(dir, 'innocent.txt'));
  linkSync(path.join(dir, 'sub/.env'), path.join(dir, 'sub/also-innocent.txt'));
  symlinkSync(path.join(dir, '.env'), path.join(dir, 'alias.txt'));
  symlinkSync(path.join(dir, 'sub'), path.join(dir, 'linked-sub'));
  return workspace;
}

describe('a read deny follows .env into every search', () => {
  let workspace: { dir: string; cleanup: () => void };
  beforeEach(() => {
    workspace = secretWorkspace();
  });
  afterEach(() => workspace.cleanup());

  it('keeps .env, sub/.env, their hard links and symlinks out of `quiver call grep_search`', async () => {
    for (const args of [{ pattern: 'SECRET' }, { pattern: 'SECRET', path: 'linked-sub' }]) {
      const run = await quiver(['call', 'grep_search', '--args', JSON.stringify(args)], {
        cwd: workspace.dir,
      });
      expect(run.stderr).not.toContain('API_KEY');
      expect(run.stdout).not.toContain('API_KEY');
      expect(run.stdout).toContain('withheld');
      expect(run.stdout).toMatch(DOT_ENV_RULE);
    }
    const everywhere = await quiver(['call', 'grep_search', '--args', '{"pattern":"SECRET"}'], {
      cwd: workspace.dir,
    });
    expect(everywhere.stdout).toContain('notes.md:1:the word SECRET in public notes');
    const link = await quiver(['call', 'read_file', '--args', '{"path":"innocent.txt"}'], {
      cwd: workspace.dir,
    });
    expect(`${link.stdout}${link.stderr}`).not.toContain('API_KEY');
    expect(`${link.stdout}${link.stderr}`).toMatch(DOT_ENV_RULE);
  });

  it('keeps them out of grep_search, file_search and list_dir over MCP (`quiver serve`)', async () => {
    const { client } = await connectStdio(workspace.dir, { trustProject: false });
    try {
      const grep = await client.callTool({ name: 'grep_search', arguments: { pattern: 'SECRET' } });
      expect(textOf(grep)).not.toContain('API_KEY');
      expect(textOf(grep)).toContain('notes.md:1:the word SECRET in public notes');
      expect(textOf(grep)).toContain('withheld');
      expect(JSON.stringify(grep)).not.toContain('API_KEY');
      const files = await client.callTool({ name: 'file_search', arguments: { pattern: '*' } });
      expect(textOf(files)).not.toMatch(/^(\.env|sub\/\.env|innocent\.txt|sub\/also-innocent\.txt)$/m);
      expect(textOf(files)).toContain('notes.md');
      const listing = await client.callTool({ name: 'list_dir', arguments: { path: 'sub' } });
      expect(textOf(listing).split('\n').slice(1, -1)).toEqual([]);
      expect(textOf(listing)).toContain('2 entries withheld');
    } finally {
      await client.close();
    }
  });
});
