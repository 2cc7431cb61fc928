import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileReducer, readFileTool } from '../src/index.js';
import { createWorkspace, expectFailure, expectOk, type TestWorkspace } from './helpers/workspace.js';

const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function numbered(count: number): string {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
}

describe('read_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('returns numbered lines with the total line count and byte size', async () => {
    await workspace.write('src/a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await workspace.run(readFileTool, { path: 'src/a.ts' });
    expectOk(result);
    expect(result.value).toBe(
      'src/a.ts (lines 1-2 of 2, 26 bytes)\n     1\tconst a = 1;\n     2\tconst b = 2;',
    );
    expect(result.structured).toMatchObject({ totalLines: 2, bytes: 26 });
  });

  it('returns only the requested inclusive range', async () => {
    await workspace.write('long.txt', numbered(50));
    const result = await workspace.run(readFileTool, { path: 'long.txt', start_line: 10, end_line: 12 });
    expectOk(result);
    expect(result.value.split('\n').slice(1)).toEqual([
      '    10\tline 10',
      '    11\tline 11',
      '    12\tline 12',
    ]);
  });

  it('refuses a start line past the end and names the line count', async () => {
    await workspace.write('short.txt', numbered(3));
    const result = await workspace.run(readFileTool, { path: 'short.txt', start_line: 9 });
    expectFailure(result);
    expect(result.error).toContain('has 3 lines');
  });

  it('refuses binary files with NUL bytes or invalid UTF-8', async () => {
    await workspace.write('blob.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
    await workspace.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const nul = await workspace.run(readFileTool, { path: 'blob.bin' });
    const invalid = await workspace.run(readFileTool, { path: 'latin1.txt' });
    expectFailure(nul);
    expectFailure(invalid);
    expect(nul.error).toContain('binary');
    expect(nul.error).toContain('NUL');
    expect(invalid.error).toContain('not valid UTF-8');
  });

  it('returns an image detected by magic bytes as a base64 attachment, whatever its extension', async () => {
    await workspace.write('picture.dat', PNG_BYTES);
    const result = await workspace.run(readFileTool, { path: 'picture.dat' });
    expectOk(result);
    expect(result.attachments).toEqual([
      { type: 'image', mimeType: 'image/png', data: PNG_BYTES.toString('base64'), name: 'picture.dat' },
    ]);
  });

  it('decodes UTF-16 files with a byte order mark', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]);
    await workspace.write('utf16.txt', le);
    const result = await workspace.run(readFileTool, { path: 'utf16.txt' });
    expectOk(result);
    expect(result.value.split('\n').slice(1)).toEqual(['     1\théllo', '     2\twörld']);
  });

  it('reads a 10 MB file and reports its size', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const content = line.repeat(100_000);
    await workspace.write('huge.txt', content);
    const result = await workspace.run(readFileTool, {
      path: 'huge.txt',
      start_line: 99_999,
      end_line: 100_000,
    });
    expectOk(result);
    expect(result.value.split('\n')[0]).toBe('huge.txt (lines 99999-100000 of 100000, 10000000 bytes)');
    expect(result.value.split('\n')).toHaveLength(3);
  });

  it('stops at the result budget and says where to read on', async () => {
    await workspace.write('long.txt', numbered(1000));
    const ctx = { ...workspace.context('read'), budget: 1000 };
    const result = await workspace.run(readFileTool, { path: 'long.txt', start_line: 1, end_line: 900 }, ctx);
    expectOk(result);
    const endLine = (result.structured as { endLine: number }).endLine;
    expect(endLine).toBeLessThan(900);
    expect(result.value).toContain(`read on with start_line: ${endLine + 1}, end_line: 900`);
    expect(result.value.split('\n')[0]).toBe(
      `long.txt (lines 1-${endLine} of 1000, ${Buffer.byteLength(numbered(1000))} bytes)`,
    );
  });

  it('says when the path is a directory or missing', async () => {
    await workspace.write('dir/file.txt', 'x');
    const directory = await workspace.run(readFileTool, { path: 'dir' });
    const missing = await workspace.run(readFileTool, { path: 'nope.txt' });
    expectFailure(directory);
    expectFailure(missing);
    expect(directory.error).toContain('list_dir');
    expect(missing.code).toBe('not_found');
  });
});

describe('readFileReducer', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('cuts an unconstrained read to 200 lines and names start_line, end_line and the total', async () => {
    await workspace.write('big.ts', numbered(1234));
    const args = { path: 'big.ts' };
    const reduced = readFileReducer.reduce(await workspace.run(readFileTool, args), {
      toolName: 'read_file',
      args,
    });
    expectOk(reduced);
    const lines = reduced.value.split('\n');
    expect(lines.filter((line) => /^ +\d+\t/.test(line))).toHaveLength(200);
    expect(lines[200]).toBe('   200\tline 200');
    expect(reduced.value).toContain('start_line');
    expect(reduced.value).toContain('end_line');
    expect(reduced.value).toContain('1234 lines');
    expect(reduced.structured).toMatchObject({ endLine: 200, truncated: true, totalLines: 1234 });
  });

  it('never cuts a read with an explicit range (500 lines arrive whole)', async () => {
    await workspace.write('big.ts', numbered(1234));
    const args = { path: 'big.ts', start_line: 101, end_line: 600 };
    const original = await workspace.run(readFileTool, args);
    const reduced = readFileReducer.reduce(original, { toolName: 'read_file', args });
    expectOk(reduced);
    expect(reduced).toBe(original);
    expect(reduced.value.split('\n').filter((line) => /^ +\d+\t/.test(line))).toHaveLength(500);
  });

  it('leaves short reads unchanged', async () => {
    await workspace.write('small.ts', numbered(20));
    const args = { path: 'small.ts' };
    const original = await workspace.run(readFileTool, args);
    expect(readFileReducer.reduce(original, { toolName: 'read_file', args })).toBe(original);
  });
});
