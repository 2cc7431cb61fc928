import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

describe('the terminal working directory', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-cwd-')));
    mkdirSync(path.join(workspace, 'sub'));
    mkdirSync(path.join(workspace, 'x'));
    // sub/k/.. is the workspace root for the kernel, and sub for anyone who folds `..` first.
    symlinkSync('../x', path.join(workspace, 'sub', 'k'));
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: default\n');
    quiver = await createQuiver({ workspace, discoverConfig: false });
  });

  afterAll(async () => {
    await quiver.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  const run = async (command: string, cwd: string) => {
    const session = quiver.createSession({ permissions: { allow: ['terminal'] } });
    try {
      const [result] = await session.execute([{ name: 'terminal', args: { command, cwd } }]);
      return result;
    } finally {
      await session.close();
    }
  };

  it('is where the kernel resolves it, for the permission check and for the command alike', async () => {
    const result = await run('echo hi > out.txt', 'sub/k/..');
    expect(result?.ok, JSON.stringify(result)).toBe(true);
    expect(existsSync(path.join(workspace, 'out.txt'))).toBe(true);
    expect(existsSync(path.join(workspace, 'sub', 'out.txt'))).toBe(false);
  });

  it('cannot be used to write protected configuration through .. after a link', async () => {
    const result = await run("echo 'pwned: true' > quiver.yaml", 'sub/k/..');
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(!result?.ok && result?.error).toContain('protected: Quiver loads this file as configuration');
  });

  it('refuses ~ with the same words as the file tools', async () => {
    const result = await run('pwd', '~');
    expect(result?.ok).toBe(false);
    expect(!result?.ok && result?.error).toContain('relative to the workspace root, or an absolute path');
  });
});
