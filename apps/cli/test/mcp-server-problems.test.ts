import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-server-problems-');
afterEach(dirs.cleanup);

/** A workspace with one good server, one whose entry has a typo, one not installed and one that exits. */
function workspace(): string {
  const dir = dirs.make();
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'mcpServers:',
      '  good:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(EVERYTHING_SERVER)}, stdio]`,
      '  typo:',
      '    comand: node',
      '  missing:',
      '    command: /nonexistent/quiver-test-server',
      '  exits:',
      '    command: sh',
      '    args: [-c, "echo starting up >&2; echo cannot open the database >&2; exit 3"]',
      '  killed:',
      '    command: sh',
      '    args: [-c, "kill -KILL $$"]',
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/default.yaml'),
    'plugins: [mcp-bridge]\nmcpServers: { good: true, typo: true, missing: true, exits: true, killed: true, godo: true }\n',
  );
  return dir;
}

describe('MCP servers that cannot start', () => {
  it('keep the good server, name each broken one with where and why, and make quiver tools fail', async () => {
    const cwd = workspace();
    const run = await quiver(['--trust-project', 'tools', '--json'], { cwd });
    expect(run.code).toBe(2);
    const listing = JSON.parse(run.stdout) as {
      tools: Array<{ name: string }>;
      mcpServerProblems: Array<{ server: string; state: string; message: string }>;
    };
    expect(listing.tools.some((tool) => tool.name.startsWith('mcp__good__'))).toBe(true);
    const byServer = Object.fromEntries(
      listing.mcpServerProblems.map((problem) => [problem.server, problem]),
    );
    expect(byServer.typo?.message).toBe(
      `${path.join(cwd, 'quiver.yaml')}:6:5: mcpServers.typo.comand: unknown key. Did you mean "command"?`,
    );
    expect(byServer.missing?.message).toContain(
      'its command "/nonexistent/quiver-test-server" was not found',
    );
    expect(byServer.exits).toMatchObject({
      state: 'failed',
      exit: { code: 3, signal: null },
      stderrTail: ['starting up', 'cannot open the database'],
    });
    expect(byServer.exits?.message).toContain('its process exited with code 3');
    expect(byServer.killed).toMatchObject({ state: 'failed', exit: { code: null, signal: 'SIGKILL' } });
    expect(byServer.killed?.message).toContain('its process was ended by signal SIGKILL');
    expect(byServer.good).toBeUndefined();
    // A server the personality enables that no settings file defines: a misspelt name.
    expect(byServer.godo).toMatchObject({ state: 'invalid' });
    expect(byServer.godo?.message).toBe(
      `${path.join(cwd, 'personalities/default.yaml')}:2:81: personality "default" enables the MCP server "godo", which no settings file defines. Did you mean "good"?`,
    );
  });

  it('are named by tools --explain for a tool of theirs', async () => {
    const cwd = workspace();
    const missing = await quiver(['--trust-project', 'tools', '--explain', 'mcp__missing__anything'], {
      cwd,
    });
    expect(missing.stdout).toContain(
      '"mcp__missing__anything" is not available: MCP server "missing" did not start',
    );
    expect(missing.stdout).toContain('fix: Install');
    const exits = await quiver(['--trust-project', 'tools', '--explain', 'mcp__exits__anything'], { cwd });
    expect(exits.stdout).toContain('its process exited with code 3');
    expect(exits.stdout).toContain('(stderr: cannot open the database)');
    expect(exits.stdout).toContain('last stderr lines:\n  starting up\n  cannot open the database\nfix:');
  });

  it('are listed by quiver mcp list with their exit code or signal and their last stderr lines', async () => {
    const cwd = workspace();
    const listed = await quiver(['--trust-project', 'mcp', 'list'], { cwd });
    const text = listed.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).toMatch(
      /exits .* failed\n\s+MCP server "exits" failed: its process exited with code 3[^\n]*\n\s+last stderr lines:\n\s+starting up\n\s+cannot open the database\n/,
    );
    expect(text).toContain('MCP server "killed" failed: its process was ended by signal SIGKILL');
    const json = await quiver(['--trust-project', 'mcp', 'get', 'exits', '--json'], { cwd });
    const [definition] = (
      JSON.parse(json.stdout) as {
        definitions: Array<{ state: string; problem: { exit: unknown; stderrTail: string[] } }>;
      }
    ).definitions;
    expect(definition?.state).toBe('failed');
    expect(definition?.problem.exit).toEqual({ code: 3, signal: null });
    expect(definition?.problem.stderrTail).toEqual(['starting up', 'cannot open the database']);
  });
});
