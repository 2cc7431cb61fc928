import { chmod, stat, utimes, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool, multiEditTool, readFileTool, writeFileTool } from '../src/index.js';
import {
  createSessionState,
  createWorkspace,
  expectFailure,
  expectOk,
  type TestWorkspace,
} from './helpers/workspace.js';

describe('edit_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('replaces the single occurrence and reports lines added and removed', async () => {
    await workspace.write('a.ts', 'export function greet() {\n  return "hi";\n}\n');
    const result = await workspace.run(editFileTool, {
      path: 'a.ts',
      old_string: '  return "hi";\n',
      new_string: '  const name = "you";\n  return greeting(name);\n',
    });
    expectOk(result);
    expect(await workspace.text('a.ts')).toBe(
      'export function greet() {\n  const name = "you";\n  return greeting(name);\n}\n',
    );
    expect(result.structured).toEqual({ path: 'a.ts', linesAdded: 2, linesRemoved: 1 });
  });

  it('lists how many times and on which lines an ambiguous old_string occurs', async () => {
    await workspace.write('dup.ts', 'let x = 1;\nfoo();\nlet y = 2;\nfoo();\n\nfoo();\n');
    const result = await workspace.run(editFileTool, {
      path: 'dup.ts',
      old_string: 'foo();',
      new_string: 'bar();',
    });
    expectFailure(result);
    expect(result.code).toBe('conflict');
    expect(result.error).toContain('3 times');
    expect(result.error).toContain('lines 2, 4, 6');
    expect(await workspace.text('dup.ts')).toBe('let x = 1;\nfoo();\nlet y = 2;\nfoo();\n\nfoo();\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    await workspace.write('dup.ts', 'foo();\nfoo();\n');
    const result = await workspace.run(editFileTool, {
      path: 'dup.ts',
      old_string: 'foo',
      new_string: 'bar',
      replace_all: true,
    });
    expectOk(result);
    expect(await workspace.text('dup.ts')).toBe('bar();\nbar();\n');
  });

  it('says when old_string is not in the file', async () => {
    await workspace.write('a.ts', 'const a = 1;\n');
    const result = await workspace.run(editFileTool, {
      path: 'a.ts',
      old_string: 'const b',
      new_string: 'const c',
    });
    expectFailure(result);
    expect(result.code).toBe('not_found');
  });

  it('keeps CRLF line endings, also for new lines written with LF', async () => {
    await workspace.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await workspace.run(editFileTool, {
      path: 'win.txt',
      old_string: 'two\n',
      new_string: 'two\nand a half\n',
    });
    expectOk(result);
    expect((await workspace.read('win.txt')).toString('latin1')).toBe(
      'one\r\ntwo\r\nand a half\r\nthree\r\n',
    );
  });

  it('keeps the endings of untouched lines in a mixed file and a missing final newline', async () => {
    await workspace.write('mixed.txt', 'a\r\nb\nc\r\nd');
    const result = await workspace.run(editFileTool, { path: 'mixed.txt', old_string: 'c', new_string: 'C' });
    expectOk(result);
    expect((await workspace.read('mixed.txt')).toString('latin1')).toBe('a\r\nb\nC\r\nd');
  });

  it('keeps a UTF-8 byte order mark', async () => {
    await workspace.write(
      'bom.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\n')]),
    );
    expectOk(await workspace.run(editFileTool, { path: 'bom.txt', old_string: 'héllo', new_string: 'grüß' }));
    expect(await workspace.read('bom.txt')).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('grüß\n')]),
    );
  });

  it('writes UTF-16 LE and BE files back in their own encoding', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha\r\nbeta\r\n', 'utf16le')]);
    const beBody = Buffer.from('alpha\nbeta\n', 'utf16le');
    beBody.swap16();
    await workspace.write('le.txt', le);
    await workspace.write('be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), beBody]));
    expectOk(await workspace.run(editFileTool, { path: 'le.txt', old_string: 'beta', new_string: 'gamma' }));
    expectOk(await workspace.run(editFileTool, { path: 'be.txt', old_string: 'beta', new_string: 'gamma' }));
    expect(await workspace.read('le.txt')).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha\r\ngamma\r\n', 'utf16le')]),
    );
    const expectedBe = Buffer.from('alpha\ngamma\n', 'utf16le');
    expectedBe.swap16();
    expect(await workspace.read('be.txt')).toEqual(Buffer.concat([Buffer.from([0xfe, 0xff]), expectedBe]));
  });

  it('keeps the file mode (an executable script stays executable)', async () => {
    const script = await workspace.write('run.sh', '#!/bin/sh\necho one\n');
    await chmod(script, 0o750);
    expectOk(await workspace.run(editFileTool, { path: 'run.sh', old_string: 'one', new_string: 'two' }));
    expect((await stat(script)).mode & 0o777).toBe(0o750);
  });

  it('refuses to edit a binary file', async () => {
    await workspace.write('blob.bin', Buffer.from([1, 2, 0, 3]));
    const result = await workspace.run(editFileTool, { path: 'blob.bin', old_string: 'a', new_string: 'b' });
    expectFailure(result);
    expect(result.error).toContain('binary');
  });

  it('returns stale_write with the size and mtime change when the file changed after the read', async () => {
    const file = await workspace.write('a.ts', 'const a = 1;\n');
    expectOk(await workspace.run(readFileTool, { path: 'a.ts' }));
    await writeFile(file, 'const a = 1;\nconst b = 2;\n');
    await utimes(file, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    const result = await workspace.run(editFileTool, {
      path: 'a.ts',
      old_string: 'const a = 1;',
      new_string: 'const a = 3;',
    });
    expectFailure(result);
    expect(result.code).toBe('stale_write');
    expect(result.error).toContain('size 13 → 26 bytes');
    expect(result.error).toContain('2030-01-01T00:00:00.000Z');
    expect(await workspace.text('a.ts')).toBe('const a = 1;\nconst b = 2;\n');
    expectOk(await workspace.run(readFileTool, { path: 'a.ts' }));
    expectOk(
      await workspace.run(editFileTool, {
        path: 'a.ts',
        old_string: 'const a = 1;',
        new_string: 'const a = 3;',
      }),
    );
  });

  it('allows consecutive edits without re-reading, since its own writes update the stamp', async () => {
    await workspace.write('a.ts', 'one\ntwo\n');
    expectOk(await workspace.run(readFileTool, { path: 'a.ts' }));
    expectOk(await workspace.run(editFileTool, { path: 'a.ts', old_string: 'one', new_string: 'ONE' }));
    expectOk(await workspace.run(editFileTool, { path: 'a.ts', old_string: 'two', new_string: 'TWO' }));
    expect(await workspace.text('a.ts')).toBe('ONE\nTWO\n');
  });

  it('edits a file this session never read, because old_string itself proves what the file holds', async () => {
    await workspace.write('unread.ts', 'value = 1\n');
    expectOk(
      await workspace.run(editFileTool, {
        path: 'unread.ts',
        old_string: 'value = 1',
        new_string: 'value = 2',
      }),
    );
    expect(await workspace.text('unread.ts')).toBe('value = 2\n');
  });

  it('lands both of two racing edits on one file without a torn write', async () => {
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index}`);
    await workspace.write('race.txt', `${lines.join('\n')}\n`);
    const results = await Promise.all([
      workspace.run(editFileTool, { path: 'race.txt', old_string: 'line 10\n', new_string: 'first edit\n' }),
      workspace.run(editFileTool, {
        path: 'race.txt',
        old_string: 'line 1990\n',
        new_string: 'second edit\n',
      }),
    ]);
    for (const result of results) expectOk(result);
    const expected = [...lines];
    expected[10] = 'first edit';
    expected[1990] = 'second edit';
    expect(await workspace.text('race.txt')).toBe(`${expected.join('\n')}\n`);
  });

  it('never tears a file when two sessions race: each edit lands or reports stale_write', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `row ${index}`);
    await workspace.write('shared.txt', `${lines.join('\n')}\n`);
    const other = createSessionState();
    const [first, second] = await Promise.all([
      workspace.run(editFileTool, { path: 'shared.txt', old_string: 'row 1\n', new_string: 'session one\n' }),
      workspace.run(
        editFileTool,
        { path: 'shared.txt', old_string: 'row 4998\n', new_string: 'session two\n' },
        workspace.context('write', other),
      ),
    ]);
    for (const result of [first, second]) if (!result.ok) expect(result.code).toBe('stale_write');
    const withFirst = [...lines];
    withFirst[1] = 'session one';
    const withSecond = [...lines];
    withSecond[4998] = 'session two';
    const withBoth = [...withFirst];
    withBoth[4998] = 'session two';
    const valid = [withFirst, withSecond, withBoth].map((variant) => `${variant.join('\n')}\n`);
    expect(valid).toContain(await workspace.text('shared.txt'));
  });

  it('edits a 10 MB file', async () => {
    const content = `${'y'.repeat(99)}\n`.repeat(100_000);
    await workspace.write('huge.txt', `${content}needle\n`);
    expectOk(
      await workspace.run(editFileTool, { path: 'huge.txt', old_string: 'needle', new_string: 'found' }),
    );
    const after = await workspace.read('huge.txt');
    expect(after.length).toBe(10_000_006);
    expect(after.subarray(-6).toString()).toBe('found\n');
  });
});

describe('multi_edit', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('applies edits in order, each to the result of the previous one', async () => {
    await workspace.write('a.ts', 'alpha\nbeta\n');
    const result = await workspace.run(multiEditTool, {
      path: 'a.ts',
      edits: [
        { old_string: 'alpha', new_string: 'gamma' },
        { old_string: 'gamma\nbeta', new_string: 'gamma\ndelta\nbeta' },
      ],
    });
    expectOk(result);
    expect(await workspace.text('a.ts')).toBe('gamma\ndelta\nbeta\n');
    expect(result.structured).toEqual({ path: 'a.ts', linesAdded: 2, linesRemoved: 1 });
  });

  it('changes nothing when one edit fails, and names the failing edit', async () => {
    await workspace.write('a.ts', 'alpha\nbeta\n');
    const result = await workspace.run(multiEditTool, {
      path: 'a.ts',
      edits: [
        { old_string: 'alpha', new_string: 'gamma' },
        { old_string: 'missing', new_string: 'x' },
      ],
    });
    expectFailure(result);
    expect(result.error).toContain('edit 2 of 2');
    expect(await workspace.text('a.ts')).toBe('alpha\nbeta\n');
  });
});

describe('write_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('creates a file and its parent directories', async () => {
    const result = await workspace.run(writeFileTool, { path: 'deep/er/new.ts', content: 'a\nb\n' });
    expectOk(result);
    expect(await workspace.text('deep/er/new.ts')).toBe('a\nb\n');
    expect(result.structured).toEqual({ path: 'deep/er/new.ts', linesAdded: 2, linesRemoved: 0 });
  });

  it('refuses a path with a trailing slash instead of creating a file named like the directory', async () => {
    const result = await workspace.run(writeFileTool, { path: 'newdir/', content: 'x' });
    expectFailure(result);
    expect(result.code).toBe('input_invalid');
  });

  it('refuses to overwrite a file this session never read', async () => {
    await workspace.write('existing.ts', 'precious\n');
    const result = await workspace.run(writeFileTool, { path: 'existing.ts', content: 'clobbered\n' });
    expectFailure(result);
    expect(result.error).toContain('read_file it first');
    expect(await workspace.text('existing.ts')).toBe('precious\n');
  });

  it('overwrites after a read, keeping CRLF endings and the BOM', async () => {
    await workspace.write(
      'win.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('old\r\nfile\r\n')]),
    );
    expectOk(await workspace.run(readFileTool, { path: 'win.txt' }));
    expectOk(await workspace.run(writeFileTool, { path: 'win.txt', content: 'new\nfile\n' }));
    expect(await workspace.read('win.txt')).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('new\r\nfile\r\n')]),
    );
  });

  it('returns stale_write when the file changed after the read', async () => {
    const file = await workspace.write('a.txt', 'one\n');
    expectOk(await workspace.run(readFileTool, { path: 'a.txt' }));
    await writeFile(file, 'someone else\n');
    const result = await workspace.run(writeFileTool, { path: 'a.txt', content: 'mine\n' });
    expectFailure(result);
    expect(result.code).toBe('stale_write');
    expect(await workspace.text('a.txt')).toBe('someone else\n');
  });
});
