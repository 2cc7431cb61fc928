import path from 'node:path';
import { createQuiver } from '@quiver/wiring';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, quiver, tempDirs, write } from './helpers.js';
import { attackProtectedTargets, type ProtectedTarget, prepareTargets } from './protected-attacks.js';

const dirs = tempDirs('quiver-settings-layers-');
afterEach(dirs.cleanup);

/** A project, a person's home and a machine's managed file, each in its own temp directory. */
function setup(layers: { user?: string; managed?: string; local?: string }) {
  const workspace = dirs.make();
  const home = dirs.make();
  const machine = dirs.make();
  write(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: default\n');
  write(
    path.join(workspace, 'personalities/default.yaml'),
    'plugins: [mcp-bridge, tools-code]\nmcpServers: { mine: true, local: true }\npermissions:\n  allow: [read_file]\n',
  );
  write(path.join(workspace, 'notes.txt'), 'hello\n');
  if (layers.user) write(path.join(home, '.config/quiver/config.yaml'), layers.user);
  if (layers.managed) write(path.join(machine, 'managed.yaml'), layers.managed);
  if (layers.local) write(path.join(workspace, 'quiver.local.yaml'), layers.local);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    QUIVER_MANAGED_SETTINGS: path.join(machine, 'managed.yaml'),
  };
  return { workspace, env };
}

const server = (name: string) =>
  `mcpServers:\n  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(EVERYTHING_SERVER)}, stdio]\n`;

const toolNames = (stdout: string) =>
  (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);

describe('settings layers', () => {
  it("starts a server of the person's own settings, and quiver.local.yaml's only with the project trusted", async () => {
    const { workspace, env } = setup({ user: server('mine'), local: server('local') });
    const untrusted = await quiver(['tools', '--json'], { cwd: workspace, env });
    const names = toolNames(untrusted.stdout);
    expect(names).not.toContain('mcp__local__echo');
    // The personality enabling `mine` is the project's, so it too waits for trust.
    expect(untrusted.stderr).toContain('quiver trust');
    const trusted = await quiver(['--trust-project', 'tools', '--json'], { cwd: workspace, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(toolNames(trusted.stdout)).toEqual(
      expect.arrayContaining(['mcp__mine__echo', 'mcp__local__echo']),
    );
  });

  it('keeps a managed deny rule that the project allows, and refuses --trust-project when managed settings say so', async () => {
    const { workspace, env } = setup({
      managed: 'allowTrustProject: false\npermissions:\n  deny: [read_file]\n',
      user: 'permissions:\n  allow: [read_file]\n',
    });
    const refused = await quiver(['--trust-project', 'tools'], { cwd: workspace, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--trust-project is turned off on this machine');
    const call = await quiver(['call', 'read_file', '--args', '{"path":"notes.txt"}'], {
      cwd: workspace,
      env,
    });
    expect(call.code).not.toBe(0);
    expect(call.stdout + call.stderr).toContain('denied by the permission rule "read_file"');
  });

  it('reports an unknown key of a settings file with its file, line and column', async () => {
    const { workspace, env } = setup({ user: 'permissions:\n  deny: [read_file]\nmcpServer: {}\n' });
    const run = await quiver(['tools'], { cwd: workspace, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${env.XDG_CONFIG_HOME}/quiver/config.yaml:3:1: mcpServer: unknown key. Did you mean "mcpServers"?`,
    );
  });

  it("reports a person's ask rule that does not parse as its loaded tool's kind, at its file, line and column", async () => {
    const { workspace, env } = setup({ user: 'permissions:\n  ask:\n    - "grep_search(src/{a)"\n' });
    const run = await quiver(['tools'], { cwd: workspace, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${env.XDG_CONFIG_HOME}/quiver/config.yaml:3:7: permissions.ask.0: Permission rule "grep_search(src/{a)" does not parse`,
    );
  });

  it("lets no tool write quiver.local.yaml, the person's settings or the machine's, wherever they are", async () => {
    const workspace = dirs.make();
    const targets: ProtectedTarget[] = [
      { path: 'quiver.local.yaml', existing: true },
      { path: 'home/.config/quiver/config.yaml', existing: true },
      { path: 'home/.config/quiver/other.yaml', existing: false },
      { path: 'etc/managed.yaml', existing: true },
    ];
    prepareTargets(workspace, targets);
    write(path.join(workspace, 'quiver.yaml'), 'workspace: .\n');
    const saved = { config: process.env.XDG_CONFIG_HOME, managed: process.env.QUIVER_MANAGED_SETTINGS };
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(workspace, 'home/.config'),
      QUIVER_MANAGED_SETTINGS: path.join(workspace, 'etc/managed.yaml'),
    };
    // The protected list reads the process environment, as the CLI's own process does.
    process.env.XDG_CONFIG_HOME = env.XDG_CONFIG_HOME;
    process.env.QUIVER_MANAGED_SETTINGS = env.QUIVER_MANAGED_SETTINGS;
    try {
      const instance = await createQuiver({ workspace, env, trustProject: true });
      try {
        expect(await attackProtectedTargets(instance, workspace, targets)).toEqual([]);
      } finally {
        await instance.close();
      }
    } finally {
      for (const [name, value] of [
        ['XDG_CONFIG_HOME', saved.config],
        ['QUIVER_MANAGED_SETTINGS', saved.managed],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  }, 120_000);
});
