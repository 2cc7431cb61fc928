import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, REPO, tempDirs, write } from './helpers.js';

/** better-sqlite3 as the storage package has it, to change a store as a person or a tool outside Quiver would. */
const Database = createRequire(path.join(REPO, 'packages/storage-sqlite/package.json'))(
  'better-sqlite3',
) as new (
  file: string,
) => { exec(sql: string): void; close(): void };

const dirs = tempDirs('quiver-doctor-');
afterEach(dirs.cleanup);

interface Report {
  healthy: boolean;
  checks: Array<{ area: string; subject: string; status: string; detail: string; fix?: string }>;
}

function homeEnv() {
  const home = dirs.make();
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    QUIVER_MANAGED_SETTINGS: path.join(home, 'managed.yaml'),
  };
}

describe('quiver doctor', () => {
  it('says what it found in a project, and names each problem with a fix, exiting 1', async () => {
    const workspace = dirs.make();
    const env = homeEnv();
    write(
      path.join(workspace, 'quiver.yaml'),
      'mcpServers:\n  gone:\n    command: /nonexistent/quiver-doctor-server\n',
    );
    write(
      path.join(workspace, 'personalities/default.yaml'),
      'plugins: [mcp-bridge]\nmcpServers: { gone: true, gnoe: true }\n',
    );
    write(path.join(env.XDG_CONFIG_HOME, 'quiver/config.yaml'), 'permissions:\n  deny: [terminal(rm:*)]\n');
    const run = await quiver(['--trust-project', 'doctor', '--json'], { cwd: workspace, env });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.healthy).toBe(false);
    expect(report.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          area: 'config',
          subject: 'project settings',
          status: 'ok',
          detail: path.join(workspace, 'quiver.yaml'),
        }),
        expect.objectContaining({ area: 'config', subject: 'user settings', status: 'ok' }),
        expect.objectContaining({ area: 'trust', status: 'ok' }),
        expect.objectContaining({
          area: 'mcp',
          subject: 'gone',
          status: 'problem',
          fix: expect.stringContaining('full path'),
        }),
        expect.objectContaining({
          area: 'mcp',
          subject: 'gnoe',
          status: 'problem',
          detail: expect.stringContaining('no settings file defines. Did you mean "gone"?'),
        }),
        expect.objectContaining({ area: 'data', status: 'ok' }),
      ]),
    );
    expect(report.checks.find((check) => check.area === 'ripgrep')).toBeDefined();
  });

  it('runs from a directory without a project, saying the defaults apply', async () => {
    const elsewhere = dirs.make();
    const env = homeEnv();
    const ok = await quiver(['doctor'], { cwd: elsewhere, env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('no quiver.yaml from');
    expect(ok.stdout).toContain('No problems');
  });

  it('names a store that lost a table its schema has, with the fix, and the session log says the same when it cannot record a call', async () => {
    const workspace = dirs.make();
    const data = dirs.make();
    const env = homeEnv();
    write(path.join(workspace, 'notes.txt'), 'hello\n');
    const call = await quiver(['--data-dir', data, 'call', 'read_file', '--args', '{"path":"notes.txt"}'], {
      cwd: workspace,
      env,
    });
    expect(call.code, call.stderr).toBe(0);
    const store = path.join(data, 'sessions.db');
    expect(readFileSync(store).length).toBeGreaterThan(0);
    const outside = new Database(store);
    outside.exec('DROP TABLE sessions');
    outside.close();
    const run = await quiver(['--data-dir', data, 'doctor', '--json'], { cwd: workspace, env });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.checks).toContainEqual(
      expect.objectContaining({
        area: 'store',
        subject: 'sessions.db',
        status: 'problem',
        detail: expect.stringContaining('lacks the table sessions'),
        fix: expect.stringContaining(`mv "${store}"`),
      }),
    );
    const again = await quiver(['--data-dir', data, 'call', 'read_file', '--args', '{"path":"notes.txt"}'], {
      cwd: workspace,
      env,
    });
    // The call runs; the log that cannot record it says why, in the same words.
    expect(again.stderr).toContain('the session log could not record');
    expect(again.stderr).toContain('lacks the table sessions');
    expect(again.stderr).not.toContain('no such table');
  });
});
