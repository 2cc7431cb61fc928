import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-log-tokens-');
afterEach(dirs.cleanup);

interface Summary {
  id: string;
  calls: number;
  resultTokens: number;
  definitionTokens?: number;
}

describe('quiver log token usage', () => {
  it('sums the tokens of each session’s results and names the size of its definitions, in quiver log', async () => {
    const cwd = dirs.make();
    write(path.join(cwd, 'quiver.yaml'), 'workspace: .\n');
    write(
      path.join(cwd, 'personalities/default.yaml'),
      'plugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
    );
    write(path.join(cwd, 'short.txt'), 'one line\n');
    write(path.join(cwd, 'long.txt'), 'a line of the longer file, numbered and read back\n'.repeat(200));
    const read = (session: string, file: string) =>
      quiver(
        [
          '--trust-project',
          'call',
          'read_file',
          '--session',
          session,
          '--args',
          JSON.stringify({ path: file }),
        ],
        {
          cwd,
        },
      );
    expect((await read('small', 'short.txt')).code).toBe(0);
    expect((await read('large', 'long.txt')).code).toBe(0);
    expect((await read('twice', 'long.txt')).code).toBe(0);
    expect((await read('twice', 'long.txt')).code).toBe(0);

    const listed = await quiver(['log', '--json'], { cwd });
    expect(listed.code, listed.stderr).toBe(0);
    const sessions = new Map(
      (JSON.parse(listed.stdout).sessions as Summary[]).map((session) => [session.id, session]),
    );
    const small = sessions.get('small') as Summary;
    const large = sessions.get('large') as Summary;
    const twice = sessions.get('twice') as Summary;
    expect(small.resultTokens).toBeGreaterThan(0);
    expect(large.resultTokens).toBeGreaterThan(small.resultTokens * 10);
    expect(twice.calls).toBe(2);
    expect(twice.resultTokens).toBe(large.resultTokens * 2);
    // The same personality: the same definitions, whatever the session read.
    expect(large.definitionTokens).toBeGreaterThan(0);
    expect(small.definitionTokens).toBe(large.definitionTokens);

    const text = await quiver(['log'], { cwd });
    expect(text.stdout).toContain(`results ~${twice.resultTokens} tokens`);
    expect(text.stdout).toContain(`definitions ~${large.definitionTokens} tokens`);
    const one = await quiver(['log', '-s', 'twice'], { cwd });
    expect(one.stdout).toContain(`results ~${twice.resultTokens} tokens`);
  }, 60_000);
});
