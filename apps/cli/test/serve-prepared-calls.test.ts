import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';
import { connectStdio, textOf } from './serve-fixtures.js';

const dirs = tempDirs('quiver-serve-prepared-');
afterEach(dirs.cleanup);

interface LoggedSession {
  id: string;
  calls?: number;
}

async function loggedSessions(dir: string): Promise<LoggedSession[]> {
  const run = await quiver(['--trust-project', 'log', '--json'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { sessions: LoggedSession[] }).sessions;
}

describe('quiver serve over stdio', () => {
  it('has its session open and in the log before the first call, which then runs and is logged', async () => {
    const dir = dirs.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: gate\n');
    write(
      path.join(dir, 'personalities/gate.yaml'),
      'id: gate\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n',
    );
    const { client } = await connectStdio(dir);
    try {
      // Opened while the server started, not by a call: the session is listed with no call yet.
      const before = await loggedSessions(dir);
      expect(before.map((session) => session.calls)).toEqual([0]);
      const result = await client.callTool({ name: 'terminal_list', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      await client.close();
      const after = await loggedSessions(dir);
      expect(after.map((session) => [session.id, session.calls])).toEqual([[before[0]?.id, 1]]);
    } finally {
      await client.close();
    }
  }, 120_000);
});
