import path from 'node:path';
import { hostileServerYaml } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

function hostileWorkspace(workspace: string, state: string, serverExtra = ''): void {
  write(
    path.join(workspace, 'quiver.yaml'),
    ['defaultPersonality: dev', ...hostileServerYaml(state), serverExtra, ''].join('\n'),
  );
  write(
    path.join(workspace, 'personalities/dev.yaml'),
    'plugins: [mcp-bridge, tools-code]\nmcpServers:\n  hostile: true\npermissions:\n  allow: [mcp__hostile__*, read_file]\n',
  );
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('what the CLI prints of a hostile server', () => {
  const dirs = tempDirs('quiver-hostile-');
  afterEach(dirs.cleanup);

  it('prints results and file contents with every control and hidden character as a visible escape', async () => {
    const workspace = dirs.make();
    hostileWorkspace(workspace, dirs.make());
    write(path.join(workspace, 'notes.txt'), 'before\u001b[2J\u001b]52;c;cHduZWQ=\u0007after\u202e\n');
    const run = (args: string[]) =>
      quiver(['--trust-project', ...args], { cwd: workspace, env: { XDG_DATA_HOME: dirs.make() } });

    const painted = await run(['call', 'mcp__hostile__painted', '--args', '{"colour":"red"}']);
    expect(painted.code).toBe(0);
    expect(painted.stdout).not.toMatch(CONTROL);
    expect(painted.stdout).toContain('paint\\u200b done');
    expect(painted.stdout).toContain('server: [exit code 0');

    const json = await run(['call', 'mcp__hostile__painted', '--args', '{"colour":"red"}', '--json']);
    expect(json.stdout).not.toMatch(/[\u200b-\u200d]/);
    expect((JSON.parse(json.stdout) as { value: string }).value).toContain('paint\u200b done');

    const file = await run(['call', 'read_file', '--args', '{"path":"notes.txt"}']);
    expect(file.stdout).not.toMatch(CONTROL);
    expect(file.stdout).toContain('before\\u001b[2J\\u001b]52;c;cHduZWQ=\\u0007after\\u202e');

    const listed = await run(['tools']);
    expect(listed.stdout).toContain('mcp__hostile__painted');
    expect(listed.stdout).not.toMatch(CONTROL);
  });

  it("does not re-advertise an untrusted server's hints to MCP clients, but does once the server is trusted", async () => {
    const untrusted = dirs.make();
    hostileWorkspace(untrusted, dirs.make());
    const hints = async (workspace: string) => {
      const run = await quiver(['--trust-project', 'tools', '--format', 'mcp'], {
        cwd: workspace,
        env: { XDG_DATA_HOME: dirs.make() },
      });
      const tools = JSON.parse(run.stdout) as Array<{ name: string; annotations?: Record<string, unknown> }>;
      return tools.find((tool) => tool.name === 'mcp__hostile__painted')?.annotations ?? {};
    };
    expect(await hints(untrusted)).not.toHaveProperty('readOnlyHint');

    const trusted = dirs.make();
    hostileWorkspace(trusted, dirs.make(), '    trustAnnotations: true');
    expect(await hints(trusted)).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  });
});
