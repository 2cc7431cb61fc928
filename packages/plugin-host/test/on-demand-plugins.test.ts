import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { definePlugin, defineTool, ok, type PluginDefinition } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type OnDemandPlugin, QuiverHost } from '../src/index.js';
import { tempDir } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

const echoPlugin = (id: string, tool: string, dependsOn?: string[]) =>
  definePlugin({
    id,
    apiVersion: 1,
    version: '1.0.0',
    ...(dependsOn ? { dependsOn } : {}),
    register(ctx) {
      ctx.registerTool(
        defineTool({
          name: tool,
          description: `Echoes text for tests (${tool}).`,
          input: z.object({ text: z.string() }),
          capabilities: {},
          execute: ({ text }) => ok(`${tool}: ${text}`),
        }),
      );
    },
  }) as PluginDefinition<any>;

describe('on-demand built-in plugins', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A plugin needed when the configuration has a `pluginConfig.relay` section; counts its imports. */
  function relay(): OnDemandPlugin & { imports: number } {
    const plugin = {
      imports: 0,
      pluginId: 'relay',
      source: '@acme/relay',
      neededBy: (config: { pluginConfig: Record<string, unknown> }) => 'relay' in config.pluginConfig,
      load: async () => {
        plugin.imports += 1;
        return echoPlugin('relay', 'relay_echo');
      },
    };
    return plugin;
  }

  async function host(config: Record<string, unknown>, onDemand: OnDemandPlugin) {
    const workspace = tempDir('quiver-on-demand-');
    cleanups.push(workspace.cleanup);
    const created = await QuiverHost.create({
      sqlite: sqliteBackend,
      logger: silent,
      workspace: workspace.dir,
      config,
      embeddedPersonalities: {
        default: { id: 'default', plugins: ['relay', 'after'], permissions: { allow: ['*'] } },
      },
      builtinPlugins: [
        onDemand,
        { definition: echoPlugin('after', 'after_echo', ['relay']), source: '@acme/after' },
      ],
    });
    cleanups.push(() => created.close());
    return created;
  }

  it('leaves a plugin the configuration does not need unimported, and one that depends on it still loads', async () => {
    const plugin = relay();
    const quiver = await host({}, plugin);

    expect(plugin.imports).toBe(0);
    expect(quiver.plugins().failed).toEqual([]);
    expect(quiver.plugins().loaded.map((loaded) => loaded.id)).toEqual(['after']);
    const session = quiver.createSession();
    expect(session.pool().definitions.map((definition) => definition.name)).toEqual(['after_echo']);
    expect(await session.execute([{ name: 'after_echo', args: { text: 'hi' } }])).toEqual([
      { ok: true, value: 'after_echo: hi' },
    ]);
  });

  it('imports it, in its place among the built-ins, when the configuration needs it', async () => {
    const plugin = relay();
    const quiver = await host({ pluginConfig: { relay: {} } }, plugin);

    expect(plugin.imports).toBe(1);
    expect(quiver.plugins().loaded.map((loaded) => loaded.id)).toEqual(['relay', 'after']);
    const session = quiver.createSession();
    expect(await session.execute([{ name: 'relay_echo', args: { text: 'hi' } }])).toEqual([
      { ok: true, value: 'relay_echo: hi' },
    ]);
  });
});
