import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs } from './helpers.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);

describe('quiver permit for commands outside the provable subset of bash', () => {
  it('names the construct and its range in --json for each ask it causes', async () => {
    const command = 'git status; echo $HOME';
    const run = await quiver(['permit', 'terminal', '--args', JSON.stringify({ command }), '--json'], {
      cwd: dirs.make(),
    });
    expect(run.code, run.stderr).toBe(0);
    const decision = JSON.parse(run.stdout) as {
      behavior: string;
      subjects: Array<{ behavior: string; construct?: { name: string; start: number; end: number } }>;
    };
    expect(decision.behavior).toBe('ask');
    const constructs = decision.subjects.flatMap((subject) => (subject.construct ? [subject.construct] : []));
    expect(constructs).toEqual([{ name: 'a variable expansion', start: 17, end: 22 }]);
    expect(command.slice(17, 22)).toBe('$HOME');
  });

  it('explains each ask with the construct and the rule that would allow it', async () => {
    const run = await quiver(
      ['permit', 'terminal', '--args', JSON.stringify({ command: 'ls\vx; npm run build' })],
      { cwd: dirs.make() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('construct: character U+000B, characters 2–3 of the command');
    expect(run.stdout).toContain('allowed by: terminal(npm run build)');
    expect(run.stdout).toContain(
      String.raw`to allow it: add "terminal(ls\u000bx; npm run build)" to permissions.allow`,
    );
    expect(run.stdout).not.toContain('\v');
  });
});
