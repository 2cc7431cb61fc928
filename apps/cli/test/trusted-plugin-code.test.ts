import { appendFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describeWithSystemTools } from '@quiver/test-utils';
import { afterEach, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';
import { letters, trustOnTerminal } from './trust-terminal.js';

const require = createRequire(import.meta.url);
const ZOD = path.dirname(require.resolve('zod/package.json'));
const dirs = tempDirs('quiver-plugin-code-');
afterEach(dirs.cleanup);

/** Plugin package `acme`: its tool answers what its declared dependency `acme-helper` says. */
function writePlugin(dir: string): void {
  write(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'acme',
      version: '1.0.0',
      type: 'module',
      dependencies: { 'acme-helper': '1.0.0', zod: '^4.0.0' },
      quiver: { plugin: './index.js' },
    }),
  );
  write(
    path.join(dir, 'index.js'),
    `import { greeting } from 'acme-helper';
import { z } from 'zod';
export default { id: 'acme', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'acme_hello', description: 'Says hello.', input: z.object({}), capabilities: {},
    execute: () => ({ ok: true, value: greeting() }) });
} };
`,
  );
}

function writeHelper(dir: string, says = 'hello from the trusted helper'): void {
  write(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'acme-helper', version: '1.0.0', type: 'module', main: './index.js' }),
  );
  write(path.join(dir, 'index.js'), `export const greeting = () => ${JSON.stringify(says)};\n`);
}

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at, 'dir');
}

/** npm's layout: every package a directory of `<root>/node_modules`. */
function installFlat(root: string): { helper: string } {
  writePlugin(path.join(root, 'node_modules/acme'));
  writeHelper(path.join(root, 'node_modules/acme-helper'));
  link(ZOD, path.join(root, 'node_modules/zod'));
  return { helper: path.join(root, 'node_modules/acme-helper/index.js') };
}

/** pnpm's layout: `node_modules/acme` links into `.pnpm`, where its dependencies are its siblings. */
function installPnpm(root: string): { helper: string; store: string } {
  const store = path.join(root, 'node_modules/.pnpm');
  const plugin = path.join(store, 'acme@1.0.0/node_modules/acme');
  const helper = path.join(store, 'acme-helper@1.0.0/node_modules/acme-helper');
  writePlugin(plugin);
  writeHelper(helper);
  link(helper, path.join(store, 'acme@1.0.0/node_modules/acme-helper'));
  link(ZOD, path.join(store, 'acme@1.0.0/node_modules/zod'));
  link(plugin, path.join(root, 'node_modules/acme'));
  return { helper: path.join(helper, 'index.js'), store };
}

/** A workspace whose quiver.yaml names plugin `acme` and whose default personality enables it. */
function workspaceIn(dir: string): { workspace: string; env: NodeJS.ProcessEnv } {
  write(path.join(dir, 'quiver.yaml'), 'plugins:\n  - acme\n');
  write(
    path.join(dir, 'personalities/default.yaml'),
    'plugins: [acme, tools-code]\npermissions:\n  allow: [acme_hello, write_file]\n',
  );
  return { workspace: dir, env: { XDG_DATA_HOME: dirs.make() } };
}

async function pluginStatus(workspace: string, env: NodeJS.ProcessEnv, global: string[] = []) {
  const run = await quiver([...global, 'plugins', '--json'], { cwd: workspace, env });
  const status = JSON.parse(run.stdout) as {
    loaded: Array<{ id: string }>;
    failed: Array<{ plugin: string; code: string; message: string; fix?: string }>;
  };
  return { ...status, code: run.code };
}

async function expectLoads(workspace: string, env: NodeJS.ProcessEnv, global: string[] = []): Promise<void> {
  const status = await pluginStatus(workspace, env, global);
  expect(status.failed).toEqual([]);
  expect(status.loaded.map((plugin) => plugin.id)).toContain('acme');
}

async function expectRefused(workspace: string, env: NodeJS.ProcessEnv, file: string): Promise<void> {
  const status = await pluginStatus(workspace, env);
  expect(status.code).toBe(1);
  expect(status.loaded.map((plugin) => plugin.id)).not.toContain('acme');
  expect(status.failed).toHaveLength(1);
  const [failure] = status.failed;
  expect(failure).toMatchObject({ plugin: 'acme', code: 'code_pin_changed' });
  expect(failure?.message).toContain(file);
  expect(failure?.message).toContain('since the project was trusted');
  expect(failure?.fix).toContain('`quiver trust`');
}

async function trust(workspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  const output = await trustOnTerminal(workspace, env);
  expect(output).toContain(letters(`trusted ${workspace}`));
  return output;
}

describeWithSystemTools(['script'])('a trusted plugin and its dependencies', () => {
  it('loads as trusted in npm layout, and refuses an edited dependency at launch, naming the file', async () => {
    const { workspace, env } = workspaceIn(dirs.make());
    const { helper } = installFlat(workspace);
    const shown = await trust(workspace, env);
    // The person saw where the plugin is and that its code is pinned.
    expect(shown).toContain(letters(`plugin acme: ${path.join(workspace, 'node_modules/acme')}`));
    await expectLoads(workspace, env);

    appendFileSync(helper, 'export const planted = 1;\n');
    await expectRefused(workspace, env, `${helper} changed`);
    // Every command that launches says so, not only `quiver plugins`.
    const tools = await quiver(['tools'], { cwd: workspace, env });
    expect(tools.stderr).toContain(`plugin acme not loaded: Plugin "acme" was not loaded: ${helper} changed`);
    expect(tools.stderr).toContain('`quiver trust` reviews it');

    await trust(workspace, env);
    await expectLoads(workspace, env);
  });

  it('follows the pnpm layout into .pnpm, and refuses an edit there or a file added to the package', async () => {
    const { workspace, env } = workspaceIn(dirs.make());
    const { helper, store } = installPnpm(workspace);
    await trust(workspace, env);
    await expectLoads(workspace, env);

    appendFileSync(helper, '// edited\n');
    await expectRefused(workspace, env, `${helper} changed`);
    await trust(workspace, env);
    await expectLoads(workspace, env);

    // A file Node could pick for `./index` (a CommonJS require) appearing in the plugin's package.
    const added = path.join(store, 'acme@1.0.0/node_modules/acme/index.cjs');
    write(added, 'module.exports = {};\n');
    await expectRefused(workspace, env, `${added} appeared`);
  });

  it('refuses a package planted where Node would find a plugin that was not installed when trusted', async () => {
    const { workspace, env } = workspaceIn(dirs.make());
    await trust(workspace, env);
    const missing = await pluginStatus(workspace, env);
    expect(missing.failed[0]?.code).toBe('plugin_not_found');

    // What a model's write_file could create: the next launch must not import it.
    writePlugin(path.join(workspace, 'node_modules/acme'));
    writeHelper(path.join(workspace, 'node_modules/acme-helper'));
    link(ZOD, path.join(workspace, 'node_modules/zod'));
    await expectRefused(workspace, env, path.join(workspace, 'node_modules/acme'));
  });

  it('refuses a package planted in the workspace over a plugin installed in a parent node_modules', async () => {
    const parent = dirs.make();
    installFlat(parent);
    const { workspace, env } = workspaceIn(path.join(parent, 'project'));
    await trust(workspace, env);
    await expectLoads(workspace, env);

    writePlugin(path.join(workspace, 'node_modules/acme'));
    await expectRefused(workspace, env, `now resolves to ${path.join(workspace, 'node_modules/acme')}`);
  });

  it('write-protects every node_modules location in the workspace where Node would search for a trusted plugin', async () => {
    const parent = dirs.make();
    installFlat(parent);
    const { workspace, env } = workspaceIn(path.join(parent, 'project'));
    await trust(workspace, env);
    const planted = path.join(workspace, 'node_modules/acme/index.js');
    const run = await quiver(
      ['permit', 'write_file', '--args', JSON.stringify({ path: planted, content: 'x' })],
      {
        cwd: workspace,
        env,
      },
    );
    // Even with write_file allowed: the location is protected, whatever the rules say.
    expect(run.stdout).toMatch(/^deny {2}write_file {2}rule: protected: /);
    expect(run.stdout).toContain('no rule allows a tool to write it');
  });
});

it('pins a plugin at launch with --trust-project and loads it while unchanged', async () => {
  const { workspace, env } = workspaceIn(dirs.make());
  installPnpm(workspace);
  await expectLoads(workspace, env, ['--trust-project']);
});
