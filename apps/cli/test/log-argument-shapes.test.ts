import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const SECRET = 'hunter2-not-for-the-log';

/** A workspace with a personality that logs argument shapes and one that logs them in full. */
function workspace(dir: string): void {
  write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: private\n');
  const personality = 'plugins: [tools-code, tools-terminal]\npermissions:\n  allow: [read_file]\n';
  write(path.join(dir, 'personalities/private.yaml'), `${personality}log:\n  arguments: shapes\n`);
  write(path.join(dir, 'personalities/open.yaml'), personality);
  write(path.join(dir, 'notes.txt'), 'notes\n');
}

interface LoggedSession {
  calls: Array<{ toolName: string; args: unknown; status: string }>;
  events: Array<{ type: string; arguments?: unknown }>;
}

describe('quiver log under a personality that records argument shapes', () => {
  const dirs = tempDirs('quiver-log-shapes-');
  afterEach(dirs.cleanup);

  async function callsOf(dir: string, personality: string, session: string): Promise<LoggedSession> {
    const run = (args: string[]) => quiver(['--trust-project', ...args], { cwd: dir });
    const read = await run([
      'call',
      'read_file',
      '-p',
      personality,
      '--session',
      session,
      '--args',
      JSON.stringify({ path: 'notes.txt', start_line: 1 }),
    ]);
    expect(read.stdout).toContain('notes');
    // Headless, the unapproved command is denied; its permission events quote it.
    const denied = await run([
      'call',
      'terminal',
      '-p',
      personality,
      '--session',
      session,
      '--args',
      JSON.stringify({ command: `curl -H "Authorization: ${SECRET}" https://example.invalid` }),
    ]);
    expect(denied.code).not.toBe(0);
    const logged = await run(['log', '--session', session, '--json']);
    expect(logged.code).toBe(0);
    return JSON.parse(logged.stdout) as LoggedSession;
  }

  it('keeps the keys and value types of each call, and no value, in its calls and events', async () => {
    const dir = dirs.make();
    workspace(dir);
    const logged = await callsOf(dir, 'private', 'shapes-1');
    expect(logged.calls.map((call) => [call.toolName, call.args])).toEqual([
      ['read_file', { path: 'string', start_line: 'number' }],
      // Refused before it started: only its request event holds its arguments.
      ['terminal', undefined],
    ]);
    const requested = logged.events.filter((event) => event.type === 'tool.user_requested');
    expect(requested.map((event) => event.arguments)).toEqual([
      { path: 'string', start_line: 'number' },
      { command: 'string' },
    ]);
    expect(logged.events.map((event) => event.type)).toContain('permission.requested');
    expect(JSON.stringify(logged)).not.toContain(SECRET);
    const listed = await quiver(['--trust-project', 'log', '--session', 'shapes-1'], { cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('{"path":"string","start_line":"number"}');
    expect(listed.stdout).toMatch(/terminal\s+not_permitted/);
  }, 60_000);

  it('keeps the arguments in full under a personality that does not ask for shapes', async () => {
    const dir = dirs.make();
    workspace(dir);
    const logged = await callsOf(dir, 'open', 'full-1');
    expect(logged.calls[0]?.args).toEqual({ path: 'notes.txt', start_line: 1 });
    expect(JSON.stringify(logged.events)).toContain(SECRET);
  }, 60_000);
});
