import { access, mkdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchText, applyPatchTool, parsePatch, patchPaths, readFileTool } from '../src/index.js';
import { createWorkspace, expectFailure, expectOk, type TestWorkspace } from './helpers/workspace.js';

const exists = (target: string) =>
  access(target).then(
    () => true,
    () => false,
  );

describe('apply_patch (envelope format)', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('adds, deletes, updates and moves files in one patch and reports each file', async () => {
    await workspace.write('old.txt', 'bye\n');
    await workspace.write('src/app.ts', 'import a from "a";\n\nfunction main() {\n  run(1);\n}\n');
    await workspace.write('src/util.ts', 'export const x = 1;\n');
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/new.md',
      '+# Title',
      '+',
      '+text',
      '*** Delete File: old.txt',
      '*** Update File: src/app.ts',
      '@@ function main() {',
      '-  run(1);',
      '+  run(2);',
      '+  done();',
      '*** Update File: src/util.ts',
      '*** Move to: lib/util.ts',
      '@@',
      '-export const x = 1;',
      '+export const x = 2;',
      '*** End Patch',
    ].join('\n');
    const result = await workspace.run(applyPatchTool, { patch });
    expectOk(result);
    expect(await workspace.text('docs/new.md')).toBe('# Title\n\ntext\n');
    expect(await exists(workspace.at('old.txt'))).toBe(false);
    expect(await workspace.text('src/app.ts')).toBe(
      'import a from "a";\n\nfunction main() {\n  run(2);\n  done();\n}\n',
    );
    expect(await exists(workspace.at('src/util.ts'))).toBe(false);
    expect(await workspace.text('lib/util.ts')).toBe('export const x = 2;\n');
    expect(result.structured).toEqual({
      format: 'envelope',
      files: [
        { path: 'docs/new.md', action: 'add', linesAdded: 3, linesRemoved: 0 },
        { path: 'old.txt', action: 'delete', linesAdded: 0, linesRemoved: 1 },
        { path: 'src/app.ts', action: 'update', linesAdded: 2, linesRemoved: 1 },
        { path: 'src/util.ts', action: 'move', movedTo: 'lib/util.ts', linesAdded: 1, linesRemoved: 1 },
      ],
    });
  });

  it('changes nothing on disk when the third file fails, including deletes and adds', async () => {
    await workspace.write('keep.txt', 'keep me\n');
    await workspace.write('edit.txt', 'before\n');
    await workspace.write('broken.txt', 'actual content\n');
    const patch = [
      '*** Begin Patch',
      '*** Add File: added.txt',
      '+new',
      '*** Delete File: keep.txt',
      '*** Update File: edit.txt',
      '@@',
      '-before',
      '+after',
      '*** Update File: broken.txt',
      '@@',
      ' actual content',
      '-expected but absent',
      '+x',
      '*** End Patch',
    ].join('\n');
    const result = await workspace.run(applyPatchTool, { patch });
    expectFailure(result);
    expect(result.error).toContain('broken.txt, hunk 1');
    expect(result.error).toContain('"expected but absent"');
    expect(result.error).toContain('No files were modified');
    expect(await exists(workspace.at('added.txt'))).toBe(false);
    expect(await workspace.text('keep.txt')).toBe('keep me\n');
    expect(await workspace.text('edit.txt')).toBe('before\n');
    expect(await workspace.text('broken.txt')).toBe('actual content\n');
  });

  it('rolls back files already written when a later write fails', async () => {
    await workspace.write('a.txt', 'a\n');
    await workspace.write('b.txt', 'b\n');
    await workspace.write('blocker', 'a file where a directory is needed\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      '-a',
      '+A',
      '*** Delete File: b.txt',
      '*** Add File: blocker/inside.txt',
      '+cannot be written',
      '*** End Patch',
    ].join('\n');
    const result = await workspace.run(applyPatchTool, { patch });
    expectFailure(result);
    expect(result.code).toBe('execution_failed');
    expect(result.error).toContain('Every file was restored');
    expect(await workspace.text('a.txt')).toBe('a\n');
    expect(await workspace.text('b.txt')).toBe('b\n');
  });

  it('matches context ignoring trailing, then surrounding, whitespace', async () => {
    await workspace.write('ws.py', 'def f():   \n        return 1\n');
    const patch =
      '*** Begin Patch\n*** Update File: ws.py\n@@\n def f():\n-    return 1\n+    return 2\n*** End Patch';
    expectOk(await workspace.run(applyPatchTool, { patch }));
    expect(await workspace.text('ws.py')).toBe('def f():   \n    return 2\n');
  });

  it('uses the @@ context line to pick the right one of two identical blocks', async () => {
    await workspace.write('two.ts', 'function a() {\n  return 0;\n}\nfunction b() {\n  return 0;\n}\n');
    const patch =
      '*** Begin Patch\n*** Update File: two.ts\n@@ function b() {\n-  return 0;\n+  return 1;\n*** End Patch';
    expectOk(await workspace.run(applyPatchTool, { patch }));
    expect(await workspace.text('two.ts')).toBe(
      'function a() {\n  return 0;\n}\nfunction b() {\n  return 1;\n}\n',
    );
  });

  it('anchors a hunk marked *** End of File to the end of the file', async () => {
    await workspace.write('end.txt', 'x\ny\nx\n');
    const patch = '*** Begin Patch\n*** Update File: end.txt\n@@\n-x\n+z\n*** End of File\n*** End Patch';
    expectOk(await workspace.run(applyPatchTool, { patch }));
    expect(await workspace.text('end.txt')).toBe('x\ny\nz\n');
  });

  it('treats a context line that looks like a marker as context', async () => {
    await workspace.write('notes.md', '*** bold ***\ntext\n');
    const patch =
      '*** Begin Patch\n*** Update File: notes.md\n@@\n *** bold ***\n-text\n+more text\n*** End Patch';
    expectOk(await workspace.run(applyPatchTool, { patch }));
    expect(await workspace.text('notes.md')).toBe('*** bold ***\nmore text\n');
  });

  it('keeps CRLF endings of the original file', async () => {
    await workspace.write('crlf.txt', 'one\r\ntwo\r\n');
    const patch =
      '*** Begin Patch\n*** Update File: crlf.txt\n@@\n one\n+one and a half\n two\n*** End Patch';
    expectOk(await workspace.run(applyPatchTool, { patch }));
    expect((await workspace.read('crlf.txt')).toString('latin1')).toBe('one\r\none and a half\r\ntwo\r\n');
  });

  it.each([
    ['an empty patch', '', 'empty'],
    ['a patch without operations', '*** Begin Patch\n*** End Patch', 'no file operations'],
    [
      'an invalid hunk header',
      '*** Begin Patch\n*** Update File: a.txt\n@@@ nope\n-a\n+b\n*** End Patch',
      'invalid hunk header',
    ],
    ['a missing end marker', '*** Begin Patch\n*** Add File: x.txt\n+x', '*** End Patch'],
    ['an unknown operation', '*** Begin Patch\n*** Rename File: a.txt\n*** End Patch', 'Unexpected line'],
  ])('rejects %s with a clear error', async (_name, patch, message) => {
    await workspace.write('a.txt', 'a\n');
    const result = await workspace.run(applyPatchTool, { patch });
    expectFailure(result);
    expect(result.code).toBe('input_invalid');
    expect(result.error).toContain(message);
    expect(await workspace.text('a.txt')).toBe('a\n');
  });

  it('rejects an update of a missing file and a delete of a directory', async () => {
    await mkdir(workspace.at('folder'));
    const update = await workspace.run(applyPatchTool, {
      patch: '*** Begin Patch\n*** Update File: ghost.txt\n@@\n-a\n+b\n*** End Patch',
    });
    const remove = await workspace.run(applyPatchTool, {
      patch: '*** Begin Patch\n*** Delete File: folder\n*** End Patch',
    });
    expectFailure(update);
    expectFailure(remove);
    expect(update.error).toContain('ghost.txt: the file does not exist');
    expect(remove.error).toContain('folder is a directory');
    expect(await exists(workspace.at('folder'))).toBe(true);
  });

  it('returns stale_write when a file changed since the session read it', async () => {
    const file = await workspace.write('a.txt', 'one\n');
    expectOk(await workspace.run(readFileTool, { path: 'a.txt' }));
    await writeFile(file, 'one\ntwo\n');
    const result = await workspace.run(applyPatchTool, {
      patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch',
    });
    expectFailure(result);
    expect(result.code).toBe('stale_write');
    expect(await workspace.text('a.txt')).toBe('one\ntwo\n');
  });

  it('declares every touched path, move targets included, for permission checks', () => {
    const patch =
      '*** Begin Patch\n*** Add File: a.txt\n+a\n*** Update File: b.txt\n*** Move to: c/b.txt\n@@\n-x\n+y\n*** Delete File: d.txt\n*** End Patch';
    const permission = applyPatchTool.permission;
    expect(permission?.kind).toBe('write');
    expect(permission && 'paths' in permission ? permission.paths({ patch }) : []).toEqual([
      'a.txt',
      'b.txt',
      'c/b.txt',
      'd.txt',
    ]);
    const parsed = parsePatch(patch);
    expect(parsed.ok && patchPaths(parsed.patch)).toEqual(['a.txt', 'b.txt', 'c/b.txt', 'd.txt']);
  });

  it('applies patch text to a plain directory through applyPatchText', async () => {
    await workspace.write('x.txt', 'x\n');
    const result = await applyPatchText(
      workspace.root,
      '*** Begin Patch\n*** Update File: x.txt\n@@\n-x\n+y\n*** End Patch\n',
    );
    expectOk(result);
    expect(await workspace.text('x.txt')).toBe('y\n');
  });
});

describe('apply_patch (unified diff)', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('applies a git diff that updates, adds, deletes and renames files', async () => {
    await workspace.write('src/main.ts', 'line 1\nline 2\nline 3\nline 4\nline 5\n');
    await workspace.write('gone.txt', 'bye\n');
    await workspace.write('before.txt', 'same\nold\n');
    const diff = [
      'diff --git a/src/main.ts b/src/main.ts',
      'index 1111111..2222222 100644',
      '--- a/src/main.ts',
      '+++ b/src/main.ts',
      '@@ -2,3 +2,3 @@ header',
      ' line 2',
      '-line 3',
      '+line three',
      ' line 4',
      'diff --git a/new.txt b/new.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/before.txt b/after.txt',
      'similarity index 50%',
      'rename from before.txt',
      'rename to after.txt',
      '--- a/before.txt',
      '+++ b/after.txt',
      '@@ -1,2 +1,2 @@',
      ' same',
      '-old',
      '+new',
      '',
    ].join('\n');
    const result = await workspace.run(applyPatchTool, { patch: diff });
    expectOk(result);
    expect(await workspace.text('src/main.ts')).toBe('line 1\nline 2\nline three\nline 4\nline 5\n');
    expect(await workspace.text('new.txt')).toBe('hello\nworld\n');
    expect(await exists(workspace.at('gone.txt'))).toBe(false);
    expect(await exists(workspace.at('before.txt'))).toBe(false);
    expect(await workspace.text('after.txt')).toBe('same\nnew\n');
    expect((result.structured as { format: string }).format).toBe('unified');
  });

  it('honours "No newline at end of file"', async () => {
    await workspace.write('n.txt', 'a\nb');
    const diff =
      '--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n';
    expectOk(await workspace.run(applyPatchTool, { patch: diff }));
    expect(await workspace.text('n.txt')).toBe('a\nc');
  });

  it('names the file and hunk of a unified hunk that does not apply, and changes nothing', async () => {
    await workspace.write('a.txt', 'one\n');
    await workspace.write('b.txt', 'two\n');
    const diff =
      '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-zwei\n+TWO\n';
    const result = await workspace.run(applyPatchTool, { patch: diff });
    expectFailure(result);
    expect(result.error).toContain('b.txt, hunk 1');
    expect(await workspace.text('a.txt')).toBe('one\n');
  });

  it('rejects a malformed hunk header', async () => {
    const result = await workspace.run(applyPatchTool, {
      patch: '--- a/a.txt\n+++ b/a.txt\n@@ -x +y @@\n-a\n+b\n',
    });
    expectFailure(result);
    expect(result.error).toContain('Invalid hunk header');
  });
});
