import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, REPO, tempDirs, write } from './helpers.js';

const FIND_USR = path.join(REPO, 'extensions/tools-terminal/test/fixtures/find-usr.txt');

function reduceTempDirs(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith('quiver-reduce-'));
}

describe('quiver reduce on an output longer than the terminal window', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it('counts every line of a 219 KB find output, as the terminal tool does, and leaves no spill file behind', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(ws, 'personalities/dev.yaml'), 'id: dev\nplugins: [tools-terminal]\nsandbox: off\n');
    const output = readFileSync(FIND_USR, 'utf8');
    const paths = output.split('\n').filter((line) => line.length > 0).length;
    const before = new Set(reduceTempDirs());
    const run = await quiver(
      ['--trust-project', 'reduce', 'terminal', '--args', '{"command":"find /usr -maxdepth 3"}', '--json'],
      { cwd: ws, input: output },
    );
    expect(run.code, run.stderr).toBe(0);
    const { result } = JSON.parse(run.stdout) as { result: { ok: boolean; value: string } };
    expect(result.value).not.toContain('partial');
    expect(result.value).not.toContain('at least');
    expect(result.value).toContain(`${paths.toLocaleString('en-US')} paths under /usr`);
    expect(result.value).toContain('full output in <spill file>');
    const left = reduceTempDirs().filter((name) => !before.has(name));
    expect(left.filter((name) => existsSync(path.join(os.tmpdir(), name)))).toEqual([]);
  });
});
