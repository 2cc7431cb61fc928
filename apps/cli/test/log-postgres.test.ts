import { existsSync } from 'node:fs';
import path from 'node:path';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const URL_VARIABLE = 'QUIVER_TEST_LOG_DATABASE_URL';

describeWithSystemTools(['postgres', 'initdb'])('quiver log with the session log on PostgreSQL', () => {
  const server = usePostgresServer();
  const dirs = tempDirs('quiver-log-postgres-');

  afterEach(dirs.cleanup);

  /** A workspace copy of one project, as each replica has, keeping its state in the shared database. */
  function replica(): string {
    const workspace = dirs.make();
    write(
      path.join(workspace, 'quiver.yaml'),
      `storage:\n  kind: postgres\n  url: \${${URL_VARIABLE}}\n  project: \${QUIVER_TEST_PROJECT}\n`,
    );
    write(path.join(workspace, 'notes.txt'), 'shared\n');
    return workspace;
  }

  it('lists on one replica the sessions and calls another replica ran, from the shared log, not its own file', async () => {
    const env = {
      [URL_VARIABLE]: await server().createDatabase('log_replicas'),
      QUIVER_TEST_PROJECT: 'team-app',
    };
    const first = replica();
    const second = replica();
    const called = await quiver(
      ['--trust-project', 'call', 'read_file', '--session', 'pg-log-1', '--args', '{"path":"notes.txt"}'],
      { cwd: first, env },
    );
    expect(called.code, called.stderr).toBe(0);

    const listed = await quiver(['--trust-project', 'log', '--json'], { cwd: second, env });
    expect(listed.code, listed.stderr).toBe(0);
    const { sessions } = JSON.parse(listed.stdout) as { sessions: Array<{ id: string; calls: number }> };
    expect(sessions).toContainEqual(expect.objectContaining({ id: 'pg-log-1', calls: 1 }));

    const shown = await quiver(['--trust-project', 'log', '--session', 'pg-log-1', '--json'], {
      cwd: second,
      env,
    });
    expect(shown.code, shown.stderr).toBe(0);
    const detail = JSON.parse(shown.stdout) as {
      calls: Array<{ toolName: string; status: string }>;
      events: Array<{ type: string }>;
    };
    expect(detail.calls.map((call) => [call.toolName, call.status])).toEqual([['read_file', 'ok']]);
    expect(detail.events.map((event) => event.type)).toContain('tool.execution_complete');
    expect(existsSync(path.join(second, '.quiver', 'sessions.db'))).toBe(false);

    const text = await quiver(['--trust-project', 'log', '--session', 'pg-log-1'], { cwd: second, env });
    expect(text.stdout).toMatch(/read_file\s+ok/);
    const missing = await quiver(['--trust-project', 'log', '--session', 'nowhere'], { cwd: second, env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No session "nowhere" in the PostgreSQL session log.');
  }, 240_000);
});
