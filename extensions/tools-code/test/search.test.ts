import { realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrepSearchTool, fileSearchTool, listDirTool } from '../src/index.js';
import { createWorkspace, expectFailure, expectOk, type TestWorkspace } from './helpers/workspace.js';

const itWithRipgrep = itWithSystemTools(['rg']);
const ripgrepTool = createGrepSearchTool({ engine: 'ripgrep' });
const javascriptTool = createGrepSearchTool({ engine: 'javascript' });

/** A tree with the things that make search engines disagree: nested ignores, hidden files, binaries, encodings. */
async function buildTree(workspace: TestWorkspace): Promise<void> {
  await workspace.write('.gitignore', 'node_modules/\n*.log\nbuild\n!keep.log\n');
  await workspace.write('.hidden/config.ts', 'export const TOKEN_NAME = "token";\n');
  await workspace.write('.git/HEAD', 'ref: refs/heads/main token\n');
  await workspace.write('node_modules/dep/index.js', 'module.exports = function token() {};\n');
  await workspace.write('build/out.js', 'var token = 1;\n');
  await workspace.write('debug.log', 'token in a log\n');
  await workspace.write('keep.log', 'token kept by negation\n');
  await workspace.write('Beta.ts', 'export const Token = 1;\nexport const token = 2;\n');
  await workspace.write(
    'alpha.ts',
    Array.from({ length: 30 }, (_, index) =>
      index % 7 === 3 ? `const token${index} = ${index};` : `// filler ${index}`,
    ).join('\n'),
  );
  await workspace.write('src/a-b.ts', 'import { token } from "./x";\nfoo(token);\n');
  await workspace.write('src/a_b.ts', 'token();\r\nother();\r\ntoken.value;\r\n');
  await workspace.write(
    'src/a.b.ts',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('token with bom\n')]),
  );
  await workspace.write('src/nested/.gitignore', 'generated/\n*.tmp\n!important.tmp\n');
  await workspace.write('src/nested/generated/gen.ts', 'token generated\n');
  await workspace.write('src/nested/scratch.tmp', 'token scratch\n');
  await workspace.write('src/nested/important.tmp', 'token important\n');
  await workspace.write('src/nested/deep/file.js', 'function token() { return "a.b*c" }\n');
  await workspace.write('src/image.bin', Buffer.from([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x00, 0x01, 0x02]));
  await workspace.write('test/token.test.ts', 'it("token", () => {});\n');
  await workspace.write('docs/README.md', '# Tokens\n\nA TOKEN is described here.\n');
  await symlink(workspace.at('src'), workspace.at('src-link'));
}

const PARITY_QUERIES: ReadonlyArray<Record<string, unknown>> = [
  { pattern: 'token' },
  { pattern: 'Token' },
  { pattern: 'token', case_sensitive: true },
  { pattern: 'TOKEN', case_sensitive: false },
  { pattern: 'tok(en)?\\d+' },
  { pattern: 'a.b*c', fixed_strings: true },
  { pattern: '^export' },
  { pattern: 'value;$' },
  { pattern: 'token', include: ['*.ts'] },
  { pattern: 'token', include: ['src/**/*.js', '*.md'] },
  { pattern: 'token', exclude: ['src', '*.md'] },
  { pattern: 'token', context: 2 },
  { pattern: 'token', context: 1, max_results: 4 },
  { pattern: 'token', max_results: 3 },
  { pattern: 'token', path: 'src' },
  { pattern: 'no such text anywhere' },
];

describe('grep_search', () => {
  let workspace: TestWorkspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
    await buildTree(workspace);
  });
  afterAll(async () => {
    await workspace.cleanup();
  });

  itWithRipgrep(
    'returns the same lines in the same order with ripgrep and with the JavaScript engine',
    async () => {
      for (const query of PARITY_QUERIES) {
        const fromRipgrep = await workspace.run(ripgrepTool, query);
        const fromJavaScript = await workspace.run(javascriptTool, query);
        expectOk(fromRipgrep);
        expectOk(fromJavaScript);
        expect({ query, value: fromJavaScript.value }).toEqual({ query, value: fromRipgrep.value });
        expect((fromRipgrep.structured as { engine: string }).engine).toBe('ripgrep');
        expect((fromJavaScript.structured as { engine: string }).engine).toBe('javascript');
      }
    },
  );

  itWithRipgrep('agrees with ripgrep on a real source tree', async () => {
    const packageRoot = await realpath(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'types'),
    );
    const ctx = {
      ...workspace.context('read'),
      capabilities: { fs_reach: { roots: [packageRoot], mode: 'read' as const } },
    };
    for (const query of [
      { pattern: 'export (type|interface) \\w+', path: 'src', max_results: 400 },
      { pattern: 'ToolResult', path: 'src', context: 1 },
    ]) {
      const fromRipgrep = await workspace.run(ripgrepTool, query, ctx);
      const fromJavaScript = await workspace.run(javascriptTool, query, ctx);
      expectOk(fromRipgrep);
      expectOk(fromJavaScript);
      expect(fromRipgrep.value).not.toBe('No matches.');
      expect(fromJavaScript.value).toBe(fromRipgrep.value);
    }
  });

  it('searches hidden files, honours nested .gitignore files and negations, and skips .git, binaries and symlinks', async () => {
    const result = await workspace.run(javascriptTool, { pattern: 'token', case_sensitive: true });
    expectOk(result);
    const files = new Set(result.value.split('\n').map((line) => line.split(/[:-]\d+[:-]/)[0]));
    expect(files.has('keep.log')).toBe(true);
    expect(files.has('src/nested/important.tmp')).toBe(true);
    expect(files.has('.hidden/config.ts')).toBe(true);
    for (const hidden of [
      'debug.log',
      'node_modules/dep/index.js',
      'build/out.js',
      '.git/HEAD',
      'src/nested/generated/gen.ts',
      'src/nested/scratch.tmp',
      'src/image.bin',
      'src-link/a-b.ts',
    ]) {
      expect(files.has(hidden)).toBe(false);
    }
  });

  it('shows context lines and says when more matches exist than max_results', async () => {
    const result = await workspace.run(javascriptTool, {
      pattern: 'token',
      case_sensitive: true,
      context: 1,
      max_results: 2,
      path: 'src',
    });
    expectOk(result);
    expect(result.value).toContain('src/a-b.ts:1:import { token } from "./x";');
    expect(result.value).toContain('src/a-b.ts:2:foo(token);');
    expect(result.value).toContain('more matches exist');
  });

  it('falls back to the JavaScript engine when rg is not on PATH', async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = '';
    try {
      const autoTool = createGrepSearchTool();
      const result = await workspace.run(autoTool, { pattern: 'token', path: 'src/nested' });
      expectOk(result);
      expect((result.structured as { engine: string }).engine).toBe('javascript');
      expect(result.value).toContain('src/nested/important.tmp:1:token important');
      const forced = await workspace.run(createGrepSearchTool({ engine: 'ripgrep' }), { pattern: 'token' });
      expectFailure(forced);
      expect(forced.code).toBe('not_available');
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('rejects an invalid regular expression as invalid input', async () => {
    const result = await workspace.run(javascriptTool, { pattern: '(unclosed' });
    expectFailure(result);
    expect(result.code).toBe('input_invalid');
  });

  itWithRipgrep('rejects an invalid regular expression as invalid input with ripgrep too', async () => {
    const fromRipgrep = await workspace.run(ripgrepTool, { pattern: '(unclosed' });
    expectFailure(fromRipgrep);
    expect(fromRipgrep.code).toBe('input_invalid');
  });
});

describe('list_dir', () => {
  let workspace: TestWorkspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
    await buildTree(workspace);
  });
  afterAll(async () => {
    await workspace.cleanup();
  });

  it('lists one level by default with types and sizes, sorted, without ignored entries', async () => {
    const result = await workspace.run(listDirTool, {});
    expectOk(result);
    const size = async (relative: string) => (await stat(workspace.at(relative))).size;
    expect(result.value.split('\n')).toEqual([
      './ (9 entries, depth 1)',
      `.gitignore  (${await size('.gitignore')} bytes)`,
      '.hidden/',
      `Beta.ts  (${await size('Beta.ts')} bytes)`,
      `alpha.ts  (${await size('alpha.ts')} bytes)`,
      'docs/',
      `keep.log  (${await size('keep.log')} bytes)`,
      'src/',
      'src-link  [symlink]',
      'test/',
    ]);
  });

  it('descends to the requested depth and honours nested .gitignore files', async () => {
    const result = await workspace.run(listDirTool, { path: 'src', depth: 3 });
    expectOk(result);
    const paths = (result.structured as { entries: Array<{ path: string }> }).entries.map(
      (entry) => entry.path,
    );
    expect(paths).toEqual([
      'a-b.ts',
      'a.b.ts',
      'a_b.ts',
      'image.bin',
      'nested',
      'nested/.gitignore',
      'nested/deep',
      'nested/deep/file.js',
      'nested/important.tmp',
    ]);
  });

  it('caps the listing and says how many entries were left out', async () => {
    const result = await workspace.run(listDirTool, { path: 'src', depth: 3, max_entries: 4 });
    expectOk(result);
    expect(result.value).toContain('[5 more entries not shown');
  });

  it('gives every file of a large directory its size, listing after listing', async () => {
    const many = await createWorkspace();
    try {
      const names = Array.from({ length: 300 }, (_, index) => `file-${String(index).padStart(3, '0')}.txt`);
      await Promise.all(names.map((name, index) => many.write(`big/${name}`, 'x'.repeat(index))));
      for (let listing = 0; listing < 30; listing += 1) {
        const result = await many.run(listDirTool, { path: 'big' });
        expectOk(result);
        const entries = (result.structured as { entries: Array<{ path: string; size?: number }> }).entries;
        expect(entries.filter((entry) => entry.size === undefined).map((entry) => entry.path)).toEqual([]);
        expect(entries.map((entry) => entry.size)).toEqual(names.map((_, index) => index));
      }
    } finally {
      await many.cleanup();
    }
  });

  it('refuses a depth above the maximum', async () => {
    const result = await workspace.run(listDirTool, { depth: 6 });
    expectFailure(result);
    expect(result.code).toBe('input_invalid');
  });
});

describe('file_search', () => {
  let workspace: TestWorkspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
    await buildTree(workspace);
  });
  afterAll(async () => {
    await workspace.cleanup();
  });

  it('finds files by glob at any depth, sorted, without ignored files', async () => {
    const result = await workspace.run(fileSearchTool, { pattern: '*.ts' });
    expectOk(result);
    expect(result.value.split('\n')).toEqual([
      '.hidden/config.ts',
      'Beta.ts',
      'alpha.ts',
      'src/a-b.ts',
      'src/a.b.ts',
      'src/a_b.ts',
      'test/token.test.ts',
    ]);
  });

  it('matches path globs from the searched directory', async () => {
    const result = await workspace.run(fileSearchTool, { pattern: 'nested/**/*.js', path: 'src' });
    expectOk(result);
    expect(result.value).toBe('src/nested/deep/file.js');
  });

  it('caps results and counts the rest', async () => {
    const result = await workspace.run(fileSearchTool, { pattern: '**/*', max_results: 3 });
    expectOk(result);
    expect(result.value.split('\n')).toHaveLength(4);
    expect(result.value).toMatch(/\[\d+ more files match/);
  });
});
