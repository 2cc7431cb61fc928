import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePathArgument } from '../src/index.js';

let root: string;
let workspace: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-resolve-')));
  workspace = path.join(root, 'ws');
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  writeFileSync(path.join(workspace, 'sub', 'a.txt'), 'a\n');
  symlinkSync('sub/deep', path.join(workspace, 'lnk'));
  symlinkSync(path.join(root, 'elsewhere', 'target.txt'), path.join(workspace, 'dangling'));
  symlinkSync('loop-b', path.join(workspace, 'loop-a'));
  symlinkSync('loop-a', path.join(workspace, 'loop-b'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const resolved = (argument: string) => {
  const result = resolvePathArgument(argument, workspace);
  if (!result.ok) throw new Error(`expected ${argument} to resolve: ${result.error}`);
  return result.path;
};

describe('resolvePathArgument', () => {
  it('follows a symlink before the .. after it, as the kernel does', () => {
    expect(resolved('lnk/../a.txt')).toBe(path.join(workspace, 'sub', 'a.txt'));
    expect(resolved(`${workspace}/lnk/../a.txt`)).toBe(path.join(workspace, 'sub', 'a.txt'));
  });

  it('drops . segments and repeated slashes', () => {
    expect(resolved('./sub/./a.txt')).toBe(path.join(workspace, 'sub', 'a.txt'));
    expect(resolved('sub//a.txt')).toBe(path.join(workspace, 'sub', 'a.txt'));
  });

  it('places a file that does not exist yet under the real path of its deepest existing parent', () => {
    const result = resolvePathArgument('lnk/new/file.txt', workspace);
    expect(result).toMatchObject({
      ok: true,
      exists: false,
      path: path.join(workspace, 'sub', 'deep', 'new', 'file.txt'),
    });
  });

  it('writes through a dangling symlink to where it points, never to the link', () => {
    expect(resolved('dangling')).toBe(path.join(root, 'elsewhere', 'target.txt'));
  });

  it('refuses ~ and ~user instead of guessing a home directory', () => {
    for (const argument of ['~', '~/x', '~root/.bashrc']) {
      const result = resolvePathArgument(argument, workspace);
      expect(result.ok, argument).toBe(false);
      expect(!result.ok && result.fix).toBe(
        'Give a path relative to the workspace root, or an absolute path.',
      );
    }
  });

  it('keeps $HOME and percent escapes as literal names', () => {
    expect(resolved('$HOME/x')).toBe(path.join(workspace, '$HOME', 'x'));
    expect(resolved('%2e%2e/x')).toBe(path.join(workspace, '%2e%2e', 'x'));
  });

  it('refuses a trailing slash after a file, since it names a directory', () => {
    const result = resolvePathArgument('sub/a.txt/', workspace);
    expect(result.ok).toBe(false);
    expect(resolvePathArgument('sub/', workspace)).toMatchObject({ ok: true, namesDirectory: true });
  });

  it('refuses a symlink loop, an empty path and a NUL byte with a reason', () => {
    expect(resolvePathArgument('loop-a/x', workspace)).toMatchObject({ ok: false });
    expect(resolvePathArgument('  ', workspace)).toMatchObject({ ok: false, error: 'The path is empty.' });
    expect(resolvePathArgument('a\0b', workspace)).toMatchObject({ ok: false });
  });

  it('does not follow /proc links, which lead somewhere else in each process', () => {
    expect(resolved('/proc/self/cwd/x')).toBe('/proc/self/cwd/x');
  });
});
