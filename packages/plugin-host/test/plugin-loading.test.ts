import path from 'node:path';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { definePlugin, defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuiverHost } from '../src/index.js';
import { tempDir, write, writePluginPackage } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const echo = (name: string) =>
  defineTool({
    name,
    description: `Echo tool ${name} for tests.`,
    input: z.object({ text: z.string() }),
    capabilities: {},
    execute: ({ text }) => ok(`${name}: ${text}`),
  });

describe('plugin loading', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function host(options: Parameters<typeof QuiverHost.create>[0]) {
    const created = await QuiverHost.create({ sqlite: sqliteBackend, logger: silent, ...options });
    cleanups.push(() => created.close());
    return created;
  }

  it('loads a plugin package from a directory outside the workspace, named in quiver.yaml', async () => {
    const outside = tempDir('quiver-plugin-');
    const workspace = tempDir('quiver-ws-');
    cleanups.push(outside.cleanup, workspace.cleanup);
    writePluginPackage(outside.dir, { name: 'acme-echo', id: 'acme-echo', tools: ['acme_echo'] });
    write(path.join(workspace.dir, 'quiver.yaml'), `plugins:\n  - ${outside.dir}\n`);
    write(
      path.join(workspace.dir, 'personalities/with-acme.yaml'),
      'id: with-acme\nplugins: [acme-echo]\npermissions:\n  allow: [acme_echo]\n',
    );
    write(
      path.join(workspace.dir, 'personalities/without-acme.yaml'),
      'id: without-acme\nplugins: []\npermissions:\n  allow: [acme_echo]\n',
    );
    const quiver = await host({ configPath: path.join(workspace.dir, 'quiver.yaml') });

    expect(quiver.plugins().failed).toEqual([]);
    const enabled = quiver.createSession({ personality: 'with-acme' });
    const disabled = quiver.createSession({ personality: 'without-acme' });
    expect(enabled.pool().definitions.map((d) => d.name)).toContain('acme_echo');
    expect(disabled.pool().definitions.map((d) => d.name)).not.toContain('acme_echo');

    const [allowed] = await enabled.execute([{ name: 'acme_echo', args: { text: 'hi' } }]);
    const [refused] = await disabled.execute([{ name: 'acme_echo', args: { text: 'hi' } }]);
    expect(allowed).toEqual({ ok: true, value: 'acme_echo: hi' });
    expect(refused?.ok).toBe(false);
  });

  it('loads a plugin by package name from the config directory', async () => {
    const workspace = tempDir('quiver-ws-');
    cleanups.push(workspace.cleanup);
    writePluginPackage(path.join(workspace.dir, 'node_modules', 'acme-named'), {
      name: 'acme-named',
      id: 'acme-named',
      tools: ['named_echo'],
    });
    const quiver = await host({
      workspace: workspace.dir,
      configDir: workspace.dir,
      config: { plugins: ['acme-named'] },
    });
    expect(quiver.plugins().loaded.map((p) => [p.id, p.tools])).toEqual([['acme-named', ['named_echo']]]);
  });

  it('loads a plugin by package name when its exports leave out package.json', async () => {
    const workspace = tempDir('quiver-ws-');
    cleanups.push(workspace.cleanup);
    const dir = path.join(workspace.dir, 'node_modules', '@acme', 'exported');
    writePluginPackage(dir, { name: '@acme/exported', id: 'acme-exported', tools: ['exported_echo'] });
    write(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: '@acme/exported',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { import: './index.js' } },
        quiver: { plugin: './index.js' },
      }),
    );
    const quiver = await host({
      workspace: workspace.dir,
      configDir: workspace.dir,
      config: { plugins: ['@acme/exported'] },
    });
    expect(quiver.plugins().failed).toEqual([]);
    expect(quiver.plugins().loaded.map((p) => [p.id, p.tools])).toEqual([
      ['acme-exported', ['exported_echo']],
    ]);
  });

  it('refuses an unsupported apiVersion and says which versions are supported', async () => {
    const outside = tempDir();
    cleanups.push(outside.cleanup);
    writePluginPackage(outside.dir, { name: 'future', id: 'future', tools: ['future_tool'], apiVersion: 2 });
    const quiver = await host({ workspace: outside.dir, config: { plugins: [outside.dir] } });
    const [failure] = quiver.plugins().failed;
    expect(failure?.code).toBe('plugin_api_version');
    expect(failure?.message).toContain('declares apiVersion 2; this host supports apiVersion 1');
    expect(quiver.registry.get('future_tool')).toBeUndefined();
  });

  it('names both plugins when two register the same tool, and keeps the first', async () => {
    const first = definePlugin({
      id: 'first',
      apiVersion: 1,
      version: '1.0.0',
      register: (ctx) => void ctx.registerTool(echo('shared_tool')),
    });
    const second = definePlugin({
      id: 'second',
      apiVersion: 1,
      version: '1.0.0',
      register(ctx) {
        ctx.registerTool(echo('second_only'));
        ctx.registerTool(echo('shared_tool'));
      },
    });
    const quiver = await host({
      builtinPlugins: [
        { definition: first, source: 'test' },
        { definition: second, source: 'test' },
      ],
    });
    const [failure] = quiver.plugins().failed;
    expect(failure).toMatchObject({
      plugin: 'second',
      code: 'plugin_duplicate_tool',
      tools: ['second_only', 'shared_tool'],
    });
    expect(failure?.message).toContain(
      '"second" registers tool "shared_tool", which plugin "first" already registers',
    );
    // Leaving a plugin out of a personality cannot fix a clash: both load for every personality.
    expect(failure?.fix).toMatch(
      /^Rename the tool in "second" \(e\.g\. "second_shared_tool"\), or remove one of the two plugins from quiver\.yaml/,
    );
    // The failed plugin is rolled back entirely: its other tool is gone too.
    expect(quiver.registry.get('second_only')).toBeUndefined();
    expect(quiver.registry.get('shared_tool')?.pluginId).toBe('first');
  });

  it('reports a missing service or plugin dependency', async () => {
    const needsService = {
      id: 'needs-db',
      apiVersion: 1,
      version: '1.0.0',
      requires: ['database'],
      register() {},
    };
    const needsPlugin = definePlugin({
      id: 'needs-plugin',
      apiVersion: 1,
      version: '1.0.0',
      dependsOn: ['absent'],
      register() {},
    });
    const quiver = await host({
      builtinPlugins: [
        { definition: needsService as never, source: 'test' },
        { definition: needsPlugin, source: 'test' },
      ],
    });
    const failures = quiver.plugins().failed;
    expect(failures.map((f) => f.code)).toEqual(['plugin_missing_dependency', 'plugin_missing_dependency']);
    expect(failures[0]?.message).toContain('requires "database", which this host does not provide');
    expect(failures[0]?.fix).toContain('logger, config, paths, lifecycle, events');
    expect(failures[1]?.message).toContain('depends on plugin "absent", which is not loaded');
  });

  it('keeps the code and fix of an error a plugin throws from its own copy of @quiver/types', async () => {
    // A plugin installed with its own @quiver/types (or loaded beside the CLI's bundle) throws
    // an error of another QuiverError class: it is still recognised by its name and code.
    const own = tempDir();
    cleanups.push(own.cleanup);
    write(
      path.join(own.dir, 'plugin.mjs'),
      [
        'class QuiverError extends Error {',
        "  constructor() { super('the plugin needs an API key'); this.name = 'QuiverError'; this.code = 'plugin_config_invalid'; this.details = { plugin: 'keyed' }; this.fix = 'Set KEYED_API_KEY.'; }",
        '}',
        "export default { id: 'keyed', apiVersion: 1, version: '1.0.0', register() { throw new QuiverError(); } };",
        '',
      ].join('\n'),
    );
    const quiver = await host({ config: { plugins: [path.join(own.dir, 'plugin.mjs')] } });
    const [failure] = quiver.plugins().failed;
    expect(failure).toMatchObject({
      plugin: 'keyed',
      code: 'plugin_config_invalid',
      fix: 'Set KEYED_API_KEY.',
    });
  });

  it('points at the zod path of a bad manifest', async () => {
    const outside = tempDir();
    cleanups.push(outside.cleanup);
    writePluginPackage(outside.dir, { name: 'bad-manifest', id: 'bad', tools: [], manifest: { plugin: 42 } });
    const badDefinition = tempDir();
    cleanups.push(badDefinition.cleanup);
    write(
      path.join(badDefinition.dir, 'plugin.mjs'),
      "export default { id: 'Bad Id', apiVersion: 1, version: '1', register: 'nope' };\n",
    );
    const quiver = await host({
      workspace: outside.dir,
      config: { plugins: [outside.dir, path.join(badDefinition.dir, 'plugin.mjs')] },
    });
    const [manifest, definition] = quiver.plugins().failed;
    expect(manifest?.code).toBe('plugin_bad_manifest');
    expect(manifest?.message).toContain('quiver.plugin');
    expect(definition?.code).toBe('plugin_bad_manifest');
    expect(definition?.message).toMatch(/id: must be lowercase/);
    expect(definition?.message).toContain('register: must be a function');
  });

  it('disables a plugin that throws during register and loads all the others', async () => {
    const broken = definePlugin({
      id: 'broken',
      apiVersion: 1,
      version: '1.0.0',
      register(ctx) {
        ctx.registerTool(echo('broken_tool'));
        throw new Error('database is on fire');
      },
    });
    const healthy = definePlugin({
      id: 'healthy',
      apiVersion: 1,
      version: '1.0.0',
      register: (ctx) => void ctx.registerTool(echo('healthy_tool')),
    });
    const quiver = await host({
      builtinPlugins: [
        { definition: broken, source: 'test' },
        { definition: healthy, source: 'test' },
      ],
    });
    expect(quiver.plugins().failed[0]).toMatchObject({ plugin: 'broken', code: 'plugin_register_failed' });
    expect(quiver.plugins().failed[0]?.message).toContain('database is on fire');
    expect(quiver.registry.get('broken_tool')).toBeUndefined();
    expect(quiver.plugins().loaded.map((p) => p.id)).toEqual(['healthy']);
  });

  it('removes every tool, reducer and hook of a plugin when it is unloaded', async () => {
    const plugin = definePlugin({
      id: 'full',
      apiVersion: 1,
      version: '1.0.0',
      register(ctx) {
        ctx.registerTool(echo('full_tool'));
        ctx.registerReducer({ tool: 'full_tool', reduce: (result) => result });
        ctx.registerHook({ event: 'preToolUse', name: 'full-hook', run: () => undefined });
      },
    });
    const quiver = await host({ builtinPlugins: [{ definition: plugin, source: 'test' }] });
    expect(quiver.registry.get('full_tool')).toBeDefined();
    expect(quiver.reducers.get('full_tool')).toBeDefined();
    expect(quiver.hooks.list('preToolUse', 'full_tool')).toHaveLength(1);
    expect(quiver.catalog.unload('full')).toBe(true);
    expect(quiver.registry.get('full_tool')).toBeUndefined();
    expect(quiver.reducers.get('full_tool')).toBeUndefined();
    expect(quiver.hooks.list('preToolUse', 'full_tool')).toHaveLength(0);
  });

  it('hands a plugin only the services it declared', async () => {
    let seen: string[] = [];
    const plugin = definePlugin({
      id: 'picky',
      apiVersion: 1,
      version: '1.0.0',
      requires: ['logger', 'config'],
      register(ctx) {
        seen = Object.keys(ctx.services).sort();
        expect(ctx.services.config).toEqual({ greeting: 'hello' });
        expect('container' in ctx).toBe(false);
      },
    });
    await host({
      config: { pluginConfig: { picky: { greeting: 'hello' } } },
      builtinPlugins: [{ definition: plugin, source: 'test' }],
    });
    expect(seen).toEqual(['config', 'logger']);
  });

  it('fails with plugin_not_found for a package that is not installed', async () => {
    const workspace = tempDir();
    cleanups.push(workspace.cleanup);
    const quiver = await host({
      workspace: workspace.dir,
      configDir: workspace.dir,
      config: { plugins: ['quiver-plugin-that-does-not-exist'] },
    });
    expect(quiver.plugins().failed[0]).toMatchObject({ code: 'plugin_not_found' });
    expect(quiver.plugins().failed[0]?.fix).toContain('npm install quiver-plugin-that-does-not-exist');
  });
});
