import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, quiver, tempDirs, write } from './helpers.js';
import { letters } from './trust-terminal.js';

const dirs = tempDirs('quiver-permissions-command-');
afterEach(dirs.cleanup);

function project() {
  const workspace = dirs.make();
  const home = dirs.make();
  write(path.join(workspace, 'quiver.yaml'), 'workspace: .\n');
  write(
    path.join(workspace, 'personalities/default.yaml'),
    '# mine\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
  );
  write(path.join(workspace, 'notes.txt'), 'hello\n');
  write(path.join(home, 'managed.yaml'), 'permissions:\n  deny: [write_file]\n');
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    QUIVER_MANAGED_SETTINGS: path.join(home, 'managed.yaml'),
  };
  return { workspace, env, userFile: path.join(home, '.config/quiver/config.yaml') };
}

/**
 * Runs `quiver ARGS` on a pseudo-terminal (util-linux `script`), as a person does, and picks
 * "Always allow" (the third choice) when the permission prompt shows.
 */
function alwaysAllowOnTerminal(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} ${quoted}`, '/dev/null'], {
      cwd,
      env: { ...process.env, ...env },
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && letters(output).includes('Alwaysallow')) {
        answered = true;
        const keys = ['\u001b[B', '\u001b[B', '\r'];
        for (const [index, key] of keys.entries())
          setTimeout(() => child.stdin.write(key), 200 * (index + 1));
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(letters(output));
    });
  });
}

describe('quiver permissions', () => {
  it('adds, lists and removes rules per scope, and a rule added for the user holds in sessions', async () => {
    const { workspace, env, userFile } = project();
    const run = (args: string[]) => quiver(args, { cwd: workspace, env });
    expect((await run(['permissions', 'add', 'deny', 'read_file(notes.txt)'])).code).toBe(0);
    expect(parse(readFileSync(userFile, 'utf8'))).toEqual({
      permissions: { deny: ['read_file(notes.txt)'] },
    });
    const personality = await run(['permissions', 'add', 'ask', 'grep_search', '--scope', 'personality']);
    expect(personality.code, personality.stderr).toBe(0);
    const personalityText = readFileSync(path.join(workspace, 'personalities/default.yaml'), 'utf8');
    expect(personalityText).toContain('# mine');
    expect(parse(personalityText).permissions).toEqual({ allow: ['read_file'], ask: ['grep_search'] });

    const list = await run(['permissions', 'list', '--json']);
    const rules = (
      JSON.parse(list.stdout) as { rules: Array<{ scope: string; behavior: string; rule: string }> }
    ).rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scope: 'managed', behavior: 'deny', rule: 'write_file' }),
        expect.objectContaining({ scope: 'user', behavior: 'deny', rule: 'read_file(notes.txt)' }),
        expect.objectContaining({ scope: 'personality', behavior: 'allow', rule: 'read_file' }),
        expect.objectContaining({ scope: 'personality', behavior: 'ask', rule: 'grep_search' }),
      ]),
    );

    const denied = await run(['--trust-project', 'call', 'read_file', '--args', '{"path":"notes.txt"}']);
    expect(denied.code).not.toBe(0);
    expect(denied.stdout + denied.stderr).toContain('read_file(notes.txt)');
    expect((await run(['permissions', 'remove', 'deny', 'read_file(notes.txt)'])).code).toBe(0);
    const allowed = await run(['--trust-project', 'call', 'read_file', '--args', '{"path":"notes.txt"}']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('hello');
  }, 60_000);

  it('refuses a rule that does not parse, a duplicate, and a run from Quiver’s terminal tool', async () => {
    const { workspace, env } = project();
    const run = (args: string[], extra = {}) => quiver(args, { cwd: workspace, env: { ...env, ...extra } });
    const bad = await run(['permissions', 'add', 'deny', 'read_file(**/*.{key']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('does not parse');
    await run(['permissions', 'add', 'allow', 'grep_search']);
    expect((await run(['permissions', 'add', 'allow', 'grep_search'])).stderr).toContain(
      'already has the allow rule',
    );
    const inside = await run(['permissions', 'add', 'allow', 'terminal'], { QUIVER_TERMINAL_RUN: 'run-1' });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain("run by a command of Quiver's terminal tool");
  }, 60_000);

  itWithSystemTools(['script', 'git'])(
    'lists a grant saved at the prompt with where it is kept, and removes it so the command is asked again',
    async () => {
      const { workspace, env } = project();
      write(path.join(workspace, 'personalities/default.yaml'), 'plugins: [tools-terminal]\nsandbox: off\n');
      const call = ['--trust-project', 'call', 'terminal', '--args', '{"command":"git status"}'];
      const prompted = await alwaysAllowOnTerminal(workspace, env, call);
      expect(prompted).toContain('Alwaysallow');
      const run = (args: string[]) => quiver(args, { cwd: workspace, env });
      const listed = await run(['permissions', 'list', '--json']);
      const store = path.join(workspace, '.quiver/permissions.db');
      expect(JSON.parse(listed.stdout).grants).toEqual([
        { scope: 'project', rule: 'terminal(git status:*)', store },
      ]);
      expect((await run(['permissions', 'list'])).stdout).toContain(
        `grant terminal(git status:*)  [project grant] ${store}`,
      );
      // Without a terminal, the saved grant is what allows it.
      const allowed = await run(call);
      expect(allowed.stdout + allowed.stderr).toContain('not a git repository');

      const typo = await run(['permissions', 'remove', 'grant', 'terminal(git status)']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('Did you mean "terminal(git status:*)"?');
      const removed = await run(['permissions', 'remove', 'grant', 'terminal(git status:*)']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(JSON.parse((await run(['permissions', 'list', '--json'])).stdout).grants).toEqual([]);
      const denied = await run(call);
      expect(denied.code).not.toBe(0);
      expect(denied.stdout + denied.stderr).toContain('terminal(git status:*)');
      expect(denied.stdout + denied.stderr).not.toContain('not a git repository');
    },
    90_000,
  );
});
