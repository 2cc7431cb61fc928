import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, quiver, tempDirs, write } from './helpers.js';

/** A plugin package in `dir` whose register() registers `tool` (and a helper tool first). */
function writePlugin(dir: string, id: string, tool: string): void {
  linkDependency(dir, 'zod');
  write(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: id, type: 'module', quiver: { plugin: './plugin.js' } }),
  );
  write(
    path.join(dir, 'plugin.js'),
    `import { z } from 'zod';
const tool = (name) => ({ name, description: 'A tool of a third-party plugin.', input: z.object({}), capabilities: {},
  execute: () => ({ ok: true, value: name }) });
export default { id: '${id}', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool(tool('${id.replace(/-/g, '_')}_status'));
  ctx.registerTool(tool('${tool}'));
} };
`,
  );
}

describe('quiver and a plugin that failed to load', () => {
  const dirs = tempDirs();
  afterEach(dirs.cleanup);

  it("names the plugin and its load error when a call asks for the failed plugin's tool", async () => {
    const ws = dirs.make();
    writePlugin(path.join(ws, 'clash'), 'acme-clash', 'read_file');
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - ./clash\n');
    write(
      path.join(ws, 'personalities/default.yaml'),
      'plugins: [acme-clash, tools-code]\npermissions:\n  allow: [acme_clash_status]\n',
    );

    const status = await quiver(['--trust-project', 'plugins', '--json'], { cwd: ws });
    expect(status.code).toBe(1);
    const [failure] = JSON.parse(status.stdout).failed;
    expect(failure).toMatchObject({
      plugin: 'acme-clash',
      code: 'plugin_duplicate_tool',
      tools: ['acme_clash_status', 'read_file'],
    });
    // The clash happens at load, so the fix is a rename (the first-party plugin always loads).
    expect(failure.fix).toContain('Rename the tool in "acme-clash"');
    expect(failure.fix).toContain('first-party and always loaded');

    const call = await quiver(['--trust-project', 'call', 'acme_clash_status'], { cwd: ws });
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      'Tool "acme_clash_status" is from plugin "acme-clash", which failed to load: [plugin_duplicate_tool]',
    );
    expect(call.stderr).toContain('Fix: Rename the tool');
  });

  it('says which enabled plugin failed when the tool it would have registered is unknown', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - acme-missing\n');
    write(path.join(ws, 'personalities/default.yaml'), 'plugins: [acme-missing]\n');

    const call = await quiver(['--trust-project', 'call', 'acme_lookup'], { cwd: ws });
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      'Plugin "acme-missing", enabled by this personality, failed to load, so its tools are missing: acme-missing: [plugin_not_found]',
    );
  });

  it('names a plugin named by path that failed before its id was known', async () => {
    const ws = dirs.make();
    write(path.join(ws, 'quiver.yaml'), 'plugins:\n  - ./plugins/acme.mjs\n');
    write(path.join(ws, 'personalities/default.yaml'), 'plugins: [acme]\n');

    const call = await quiver(['--trust-project', 'call', 'acme_hello'], { cwd: ws });
    expect(call.code).toBe(1);
    expect(call.stderr).toContain('"./plugins/acme.mjs"');
    expect(call.stderr).toContain('[plugin_not_found]');
  });
});
