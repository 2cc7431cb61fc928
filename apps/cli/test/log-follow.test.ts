import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, quiver, TEST_XDG_DATA_HOME, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-log-follow-');
afterEach(dirs.cleanup);

function workspace(): string {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.yaml'), 'workspace: .\n');
  write(
    path.join(dir, 'personalities/default.yaml'),
    'plugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
  );
  write(path.join(dir, 'notes.txt'), 'notes\n');
  return dir;
}

const read = (cwd: string, session: string) =>
  quiver(['--trust-project', 'call', 'read_file', '--session', session, '--args', '{"path":"notes.txt"}'], {
    cwd,
  });

describe('quiver log', () => {
  it('takes a unique prefix of a session id, and says which sessions a shared prefix names', async () => {
    const cwd = workspace();
    await read(cwd, 'alpha-1111');
    await read(cwd, 'alpha-2222');
    const one = await quiver(['log', '-s', 'alpha-1', '--json'], { cwd });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({
      session: 'alpha-1111',
      calls: [{ toolName: 'read_file' }],
    });
    const both = await quiver(['log', '-s', 'alpha'], { cwd });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('is the start of 2 sessions');
  });

  it('follows a session, printing each call as it is logged', async () => {
    const cwd = workspace();
    await read(cwd, 'follow-me');
    const child = spawn(process.execPath, [BIN, 'log', '--follow', '-s', 'follow', '--json'], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: TEST_XDG_DATA_HOME },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const lines = () => stdout.split('\n').filter((line) => line.startsWith('{"') || line.startsWith('{'));
    const until = async (check: () => boolean) => {
      for (let waited = 0; waited < 30_000 && !check(); waited += 100)
        await new Promise((r) => setTimeout(r, 100));
    };
    try {
      await until(() => stdout.includes('"toolName"'));
      const before = (stdout.match(/"toolName"/g) ?? []).length;
      await read(cwd, 'follow-me');
      await until(() => (stdout.match(/"toolName"/g) ?? []).length > before);
      expect((stdout.match(/"toolName"/g) ?? []).length).toBeGreaterThan(before);
      expect(lines().length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);
});
