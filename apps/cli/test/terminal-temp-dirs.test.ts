import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { BIN, quiver, TEST_XDG_DATA_HOME, tempDirs, write } from './helpers.js';

const sandboxDirs = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('quiver-terminal-'));

async function until<T>(probe: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeWithSystemTools(['bwrap'])('the temporary directories of sandboxed terminal commands', () => {
  const dirs = tempDirs('quiver-sandbox-tmp-');
  afterEach(dirs.cleanup);

  it('are removed by the next sandboxed command after a SIGKILL of quiver mid-command', async () => {
    const workspace = dirs.make();
    const tmp = dirs.make();
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      "id: dev\nplugins: [tools-terminal]\nsandbox: required\npermissions:\n  allow: ['terminal(sleep:*)']\n",
    );
    const env = { TMPDIR: tmp };
    const killed = spawn(
      process.execPath,
      [BIN, '--trust-project', 'call', 'terminal', '--args', '{"command":"sleep 30"}'],
      { cwd: workspace, env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: TEST_XDG_DATA_HOME, ...env } },
    );
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    try {
      const stale = await until(() => sandboxDirs(tmp)[0], 20_000);
      // The directory names the process that made it (the quiver process, which runs the command).
      const owner = Number(/^quiver-terminal-(\d+)-/.exec(stale)?.[1]);
      expect(owner).toBeGreaterThan(0);
      process.kill(owner, 'SIGKILL');
      killed.kill('SIGKILL');
      await exited;
      expect(existsSync(path.join(tmp, stale))).toBe(true);

      const next = await quiver(['--trust-project', 'call', 'terminal', '--args', '{"command":"sleep 0"}'], {
        cwd: workspace,
        env,
      });
      expect(next.code, next.stderr).toBe(0);
      expect(sandboxDirs(tmp)).toEqual([]);
    } finally {
      killed.kill('SIGKILL');
    }
  }, 60_000);

  it('are removed when quiver is stopped by SIGHUP (a closed terminal) mid-command', async () => {
    const workspace = dirs.make();
    const tmp = dirs.make();
    write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      "id: dev\nplugins: [tools-terminal]\nsandbox: required\npermissions:\n  allow: ['terminal(sleep:*)']\n",
    );
    const hungUp = spawn(
      process.execPath,
      [BIN, '--trust-project', 'call', 'terminal', '--args', '{"command":"sleep 30"}'],
      {
        cwd: workspace,
        env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: TEST_XDG_DATA_HOME, TMPDIR: tmp },
      },
    );
    const exited = new Promise((resolve) => hungUp.once('exit', resolve));
    try {
      const made = await until(() => sandboxDirs(tmp)[0], 20_000);
      const owner = Number(/^quiver-terminal-(\d+)-/.exec(made)?.[1]);
      process.kill(owner, 'SIGHUP');
      await exited;
      expect(sandboxDirs(tmp)).toEqual([]);
    } finally {
      hungUp.kill('SIGKILL');
    }
  }, 60_000);
});
