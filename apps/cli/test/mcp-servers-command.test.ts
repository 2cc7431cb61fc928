import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-mcp-command-');
afterEach(dirs.cleanup);

function project() {
  const workspace = dirs.make();
  const home = dirs.make();
  write(path.join(workspace, 'quiver.yaml'), '# the project\nworkspace: .\n');
  write(
    path.join(workspace, 'personalities/default.yaml'),
    'plugins: [mcp-bridge]\nmcpServers: { mine: true }\n',
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    QUIVER_MANAGED_SETTINGS: path.join(home, 'no-managed.yaml'),
  };
  return { workspace, env, userFile: path.join(home, '.config/quiver/config.yaml') };
}

describe('quiver mcp add, list, get, remove', () => {
  it('writes each scope to its own file, keeps comments, and lists each server with its state', async () => {
    const { workspace, env, userFile } = project();
    const run = (args: string[]) => quiver(args, { cwd: workspace, env });
    const user = await run([
      'mcp',
      'add',
      'mine',
      '--scope',
      'user',
      '--',
      process.execPath,
      EVERYTHING_SERVER,
      'stdio',
    ]);
    expect(user.code, user.stderr).toBe(0);
    expect(readFileSync(userFile, 'utf8')).toContain('mine:');
    const shared = await run([
      'mcp',
      'add',
      'docs',
      '--scope',
      'project',
      '--url',
      'https://example.com/mcp',
    ]);
    expect(shared.code, shared.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).toMatch(
      /^# the project\n[\s\S]*docs:\n\s+url: https:\/\/example.com\/mcp/,
    );
    const local = await run(['mcp', 'add', 'scratch', '--env', 'TOKEN_FILE=/x', '--', 'node', 'server.js']);
    expect(local.code, local.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, 'quiver.local.yaml'), 'utf8')).toContain('TOKEN_FILE: /x');

    // With the project (whose personality enables `mine`) trusted, the person's server starts.
    const list = await run(['--trust-project', 'mcp', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const servers = (
      JSON.parse(list.stdout) as {
        servers: Array<{ server: string; scope: string; state: string; tools: number }>;
      }
    ).servers;
    expect(servers.find((entry) => entry.server === 'mine')).toMatchObject({
      scope: 'user',
      state: 'connected',
    });
    expect(servers.find((entry) => entry.server === 'mine')?.tools).toBeGreaterThan(0);
    expect(servers.find((entry) => entry.server === 'docs')).toMatchObject({
      scope: 'project',
      state: 'not enabled',
    });
    expect(servers.find((entry) => entry.server === 'scratch')).toMatchObject({
      scope: 'local',
      state: 'not enabled',
    });

    // Untrusted, the project personality that enables the person's server is not in effect: said so.
    const untrusted = await run(['mcp', 'list']);
    expect(untrusted.stdout).toMatch(
      /^mine .* not started: the default personality enables it in a change that waits for `quiver trust`$/m,
    );

    const get = await run(['mcp', 'get', 'scratch']);
    expect(get.stdout).toContain(path.join(workspace, 'quiver.local.yaml'));
    const typo = await run(['mcp', 'get', 'scrach']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean "scratch"?');

    const removed = await run(['mcp', 'remove', 'docs']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).not.toContain('docs');
    expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).toContain('# the project');
  }, 60_000);

  it('checks an entry before writing it, and refuses to run from a command of Quiver’s terminal tool', async () => {
    const { workspace, env } = project();
    const before = readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8');
    const bad = await quiver(['mcp', 'add', 'bad__name', '--scope', 'project', '--', 'node'], {
      cwd: workspace,
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not usable in tool names');
    const noCommand = await quiver(['mcp', 'add', 'empty'], { cwd: workspace, env });
    expect(noCommand.stderr).toContain('Give the command that starts the server, after --');
    const inside = await quiver(['mcp', 'add', 'x', '--scope', 'project', '--', 'node'], {
      cwd: workspace,
      env: { ...env, QUIVER_TERMINAL_RUN: 'run-1' },
    });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain("run by a command of Quiver's terminal tool");
    expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).toBe(before);
  });
});
