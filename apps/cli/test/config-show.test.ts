import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-config-show-');
afterEach(dirs.cleanup);

describe('quiver config show --origin', () => {
  it('names the file, line and scope of each setting in effect, the person’s layer over the project’s', async () => {
    const workspace = dirs.make();
    const home = dirs.make();
    write(
      path.join(workspace, 'quiver.yaml'),
      'workspace: .\ndefaultPersonality: project-one\nmcpServers:\n  shared:\n    command: project-server\n',
    );
    write(path.join(workspace, 'quiver.local.yaml'), 'dataDir: .local-data\ndefaultPersonality: local-one\n');
    write(
      path.join(home, '.config/quiver/config.yaml'),
      'mcpServers:\n  shared:\n    command: my-server\npermissions:\n  deny: [terminal(rm:*)]\n',
    );
    write(path.join(home, 'managed.yaml'), 'permissions:\n  deny: [write_file]\n');
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      QUIVER_MANAGED_SETTINGS: path.join(home, 'managed.yaml'),
    };
    const run = await quiver(['config', 'show', '--origin', '--json'], { cwd: workspace, env });
    expect(run.code, run.stderr).toBe(0);
    const settings = (
      JSON.parse(run.stdout) as {
        settings: Array<{ key: string; value: unknown; scope: string; at: string }>;
      }
    ).settings;
    const user = path.join(home, '.config/quiver/config.yaml');
    expect(settings).toEqual(
      expect.arrayContaining([
        { key: 'mcpServers.shared', value: { command: 'my-server' }, scope: 'user', at: `${user}:2:3` },
        {
          key: 'permissions.deny',
          value: ['write_file'],
          scope: 'managed',
          at: `${path.join(home, 'managed.yaml')}:2:3`,
        },
        { key: 'permissions.deny', value: ['terminal(rm:*)'], scope: 'user', at: `${user}:5:3` },
        {
          key: 'defaultPersonality',
          value: 'project-one',
          scope: 'project',
          at: `${path.join(workspace, 'quiver.yaml')}:2:1`,
        },
        {
          key: 'dataDir',
          value: '.local-data',
          scope: 'local',
          at: `${path.join(workspace, 'quiver.local.yaml')}:1:1`,
        },
      ]),
    );
    expect(settings.filter((setting) => setting.key === 'mcpServers.shared')).toHaveLength(1);
    expect(settings.filter((setting) => setting.key === 'defaultPersonality')).toHaveLength(1);
  });
});
