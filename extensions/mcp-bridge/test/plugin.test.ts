import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DefaultToolRegistry } from '@quiver/core';
import { type PersonalityDemand, type PluginContext, QuiverError, type QuiverEvent } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import mcpBridgeDefault, { mcpBridgePlugin } from '../src/index.js';
import { fixtureServer, makeTempDir } from './helpers.js';

type BridgeContext = PluginContext<'config' | 'logger' | 'lifecycle' | 'events' | 'paths'>;

/** The plugin context a host hands over, built by hand: the host is a port here. */
function pluginContext(config: Record<string, unknown>) {
  const registry = new DefaultToolRegistry();
  const events: QuiverEvent[] = [];
  const warnings: string[] = [];
  const shutdown: Array<() => void | Promise<void>> = [];
  const demands: Array<(demand: PersonalityDemand) => void | Promise<void>> = [];
  const context: BridgeContext = {
    pluginId: 'mcp-bridge',
    registerTool: (tool) => registry.register(tool, { pluginId: 'mcp-bridge' }),
    registerReducer: () => () => {},
    registerHook: () => () => {},
    registerBackend: () => () => {},
    services: {
      config,
      logger: { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} },
      lifecycle: { onShutdown: (fn) => shutdown.push(fn), onDemand: (fn) => demands.push(fn) },
      events: { publish: (event) => events.push(event) },
      paths: { workspace: process.cwd(), dataDir: process.cwd(), configDir: process.cwd() },
    },
  };
  return {
    context,
    registry,
    events,
    warnings,
    /** What a host does when a session under a personality needs its servers. */
    demand: async (mcpServers: string[]) => {
      for (const fn of demands) await fn({ personality: 'test', mcpServers });
    },
    shutdown: async () => {
      for (const fn of shutdown) await fn();
    },
  };
}

async function registerError(config: Record<string, unknown>): Promise<QuiverError> {
  const { context } = pluginContext(config);
  try {
    await mcpBridgePlugin.register(context);
  } catch (error) {
    if (error instanceof QuiverError) return error;
    throw error;
  }
  throw new Error('register did not throw');
}

describe('the mcp-bridge plugin', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('declares what it needs, including the workspace paths its pins are keyed by, and is the default export', () => {
    expect(mcpBridgeDefault).toBe(mcpBridgePlugin);
    expect(mcpBridgePlugin).toMatchObject({ id: 'mcp-bridge', apiVersion: 1 });
    expect([...(mcpBridgePlugin.requires ?? [])].sort()).toEqual([
      'config',
      'events',
      'lifecycle',
      'logger',
      'paths',
    ]);
  });

  it('rejects a bad server entry with config_invalid naming the server and the key', async () => {
    const error = await registerError({ github: { command: 'npx', args: 'not-a-list' } });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('mcpServers.github.args');
    expect(error.fix).toBeTruthy();
  });

  it('rejects an entry with neither command nor url, and unknown keys', async () => {
    expect((await registerError({ empty: {} })).message).toContain('mcpServers.empty');
    const unknownKey = await registerError({ web: { url: 'https://example.com/mcp', header: {} } });
    expect(unknownKey.message).toContain('mcpServers.web');
    expect(unknownKey.details).toMatchObject({ server: 'web' });
  });

  it('rejects a server name that would make tool names ambiguous', async () => {
    const error = await registerError({ my__server: { command: 'x' } });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('my__server');
  });

  it('registers the tools of good servers, warns about broken ones, and stops them on shutdown', async () => {
    const state = await makeTempDir('plugin');
    cleanups.push(state.remove);
    const host = pluginContext({
      good: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STATE_DIR: state.path } },
      broken: { command: '/nonexistent/mcp-server', connectTimeoutMs: 2_000 },
      off: { command: process.execPath, args: [fixtureServer], disabled: true },
    });
    cleanups.push(host.shutdown);
    await mcpBridgePlugin.register(host.context);
    await host.demand(['good', 'broken', 'off']);

    const names = host.registry.list().map((entry) => entry.tool.name);
    expect(names).toContain('mcp__good__echo');
    expect(names.some((name) => name.startsWith('mcp__off__'))).toBe(false);
    expect(host.events).toContainEqual(
      expect.objectContaining({
        type: 'session.warning',
        code: 'mcp_connect_failed',
        message: expect.stringContaining('"broken"'),
      }),
    );
    expect(host.warnings.some((message) => message.includes('"broken"'))).toBe(true);

    await host.shutdown();
    expect(host.registry.list().filter((entry) => entry.tool.mcp !== undefined)).toEqual([]);
  });

  it('starts no server when registered, then only the servers a demand names, each once', async () => {
    const first = await makeTempDir('lazy-first');
    const second = await makeTempDir('lazy-second');
    cleanups.push(first.remove, second.remove);
    const server = (state: string) => ({
      command: process.execPath,
      args: [fixtureServer],
      env: { FIXTURE_STATE_DIR: state },
    });
    const host = pluginContext({ first: server(first.path), second: server(second.path) });
    cleanups.push(host.shutdown);
    await mcpBridgePlugin.register(host.context);
    expect(existsSync(join(first.path, 'starts.log'))).toBe(false);

    await host.demand(['first']);
    await host.demand(['first']);
    expect((await readFile(join(first.path, 'starts.log'), 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(second.path, 'starts.log'))).toBe(false);
    const names = host.registry.list().map((entry) => entry.tool.name);
    expect(names).toContain('mcp__first__echo');
    expect(names.some((name) => name.startsWith('mcp__second__'))).toBe(false);
    expect(host.events).toContainEqual(
      expect.objectContaining({
        type: 'tools.list_changed',
        pluginId: 'mcp-bridge',
        server: 'first',
        added: expect.arrayContaining(['mcp__first__echo']),
        removed: [],
      }),
    );
  });
});
