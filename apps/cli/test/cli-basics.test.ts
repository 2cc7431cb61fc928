import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, quiver, REPO, tempDirs, write } from './helpers.js';

describe('quiver CLI', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);
  const workspace = dirs.make;

  it('prints help with every command', async () => {
    const run = await quiver(['--help'], { cwd: workspace() });
    expect(run.code).toBe(0);
    for (const command of ['tools', 'call', 'personality', 'plugins', 'init'])
      expect(run.stdout).toContain(command);
  });

  it('lists the first-party tools of the embedded default personality when there is no quiver.yaml', async () => {
    const run = await quiver(['tools', '--json'], { cwd: workspace() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout).tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['read_file', 'edit_file', 'terminal', 'kanban_list', 'memory_search']),
    );
  });

  it('loads a plugin from outside the workspace and gates it per personality', async () => {
    const plugin = { dir: dirs.make() };
    write(
      path.join(plugin.dir, 'package.json'),
      JSON.stringify({
        name: 'acme-shout',
        version: '1.0.0',
        type: 'module',
        quiver: { plugin: './plugin.js' },
      }),
    );
    linkDependency(plugin.dir, 'zod', path.join(REPO, 'packages/types/node_modules/zod'));
    write(
      path.join(plugin.dir, 'plugin.js'),
      `import { z } from 'zod';
export default { id: 'acme-shout', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'shout', description: 'Upper-cases text, loudly.', input: z.object({ text: z.string() }), capabilities: {},
    execute: ({ text }) => ({ ok: true, value: text.toUpperCase() + '!' }) });
} };
`,
    );
    const ws = workspace();
    write(path.join(ws, 'quiver.yaml'), `plugins:\n  - ${plugin.dir}\ndefaultPersonality: loud\n`);
    write(
      path.join(ws, 'personalities/loud.yaml'),
      'id: loud\nplugins: [acme-shout]\npermissions:\n  allow: [shout]\n',
    );
    write(
      path.join(ws, 'personalities/quiet.yaml'),
      'id: quiet\nplugins: [tools-code]\npermissions:\n  allow: [shout]\n',
    );

    const visible = await quiver(['--trust-project', 'tools', '--json'], { cwd: ws });
    expect(JSON.parse(visible.stdout).tools.map((t: { name: string }) => t.name)).toContain('shout');
    const hidden = await quiver(['--trust-project', 'tools', '--json', '--personality', 'quiet'], {
      cwd: ws,
    });
    expect(JSON.parse(hidden.stdout).tools.map((t: { name: string }) => t.name)).not.toContain('shout');

    const call = await quiver(['--trust-project', 'call', 'shout', '--args', '{"text":"hi"}'], { cwd: ws });
    expect(call).toMatchObject({ code: 0, stdout: 'HI!\n' });
    const refused = await quiver(
      ['--trust-project', 'call', 'shout', '--args', '{"text":"hi"}', '--personality', 'quiet'],
      {
        cwd: ws,
      },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('shout failed');
  });

  it('reports each plugin failure with its code and fix, and keeps the others', async () => {
    const ws = workspace();
    write(
      path.join(ws, 'future/package.json'),
      JSON.stringify({ name: 'future', type: 'module', quiver: { plugin: './index.js' } }),
    );
    write(
      path.join(ws, 'future/index.js'),
      "export default { id: 'future', apiVersion: 9, version: '1.0.0', register() {} };\n",
    );
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - ./future\n  - not-installed-plugin\n');
    const run = await quiver(['--trust-project', 'plugins'], { cwd: ws });
    // The list is printed in full, and the exit code says that not everything loaded.
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✓ tools-code');
    expect(run.stdout).toContain('✗ future [plugin_api_version] Plugin "future"');
    expect(run.stdout).toContain('this host supports apiVersion 1');
    expect(run.stdout).toContain('✗ not-installed-plugin [plugin_not_found]');
    expect(run.stdout).toContain('fix: Install it next to quiver.yaml');
  });

  it('exits 2 with the key path and a did-you-mean for a config typo', async () => {
    const ws = workspace();
    write(path.join(ws, 'quiver.yaml'), 'plugin: []\n');
    const run = await quiver(['tools'], { cwd: ws });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error [config_invalid]');
    expect(run.stderr).toContain('plugin: unknown key. Did you mean "plugins"?');
    expect(run.stdout).toBe('');
  });

  it('exits 2 on bad --args JSON and says how to fix it', async () => {
    const run = await quiver(['call', 'read_file', '--args', '{path:'], { cwd: workspace() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--args is not valid JSON');
    expect(run.stderr).toContain('fix:');
  });

  it('lists the example plugin tool when a personality enables it', async () => {
    const ws = workspace();
    write(path.join(ws, 'quiver.yaml'), `plugins:\n  - ${path.join(REPO, 'examples/plugin-units')}\n`);
    write(
      path.join(ws, 'personalities/default.yaml'),
      'id: default\nplugins: [units]\npermissions:\n  allow: [convert_units]\n',
    );
    const run = await quiver(['--trust-project', 'tools', '--json'], { cwd: ws });
    expect(JSON.parse(run.stdout).tools.map((t: { name: string }) => t.name)).toEqual(['convert_units']);
    const call = await quiver(
      ['--trust-project', 'call', 'convert_units', '--args', '{"value":1,"from":"km","to":"m"}'],
      {
        cwd: ws,
      },
    );
    expect(call.stdout).toBe('1 km = 1000 m\n');
  });

  it('writes commented config files with init and refuses to overwrite them without --force', async () => {
    const ws = workspace();
    const first = await quiver(['init'], { cwd: ws });
    expect(first.code).toBe(0);
    const personality = readFileSync(path.join(ws, 'personalities/default.yaml'), 'utf8');
    expect(personality).toContain('# Permission rules');
    expect(existsSync(path.join(ws, 'quiver.yaml'))).toBe(true);
    const second = await quiver(['init'], { cwd: ws });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('already exist');
    expect(second.stderr).toContain('--force');
    const forced = await quiver(['init', '--force'], { cwd: ws });
    expect(forced.code).toBe(0);
    const check = await quiver(['personality', 'check', 'personalities/default.yaml'], { cwd: ws });
    expect(check.code).toBe(0);
    const tools = await quiver(['tools', '--json'], { cwd: ws });
    expect(tools.code).toBe(0);
  });
});
