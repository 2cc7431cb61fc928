import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DefaultToolRegistry } from '@quiver/core';
import { type PersonalityDemand, type PluginContext, QuiverError, type QuiverEvent } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import mcpBridgeDefault, {
  mcpBridgePlugin,
  parseMcpServersConfig,
  readMcpServersConfig,
} from '../src/index.js';
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

  it('reports each broken server entry with the key at fault and keeps the good servers', async () => {
    const state = await makeTempDir('plugin-invalid');
    cleanups.push(state.remove);
    const host = pluginContext({
      good: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STATE_DIR: state.path } },
      typo: { comand: 'node' },
      github: { command: 'npx', args: 'not-a-list' },
      empty: {},
      web: { url: 'https://example.com/mcp', header: {} },
      my__server: { command: 'x' },
    });
    cleanups.push(host.shutdown);
    await mcpBridgePlugin.register(host.context);
    await host.demand(['good', 'typo', 'github', 'empty', 'web', 'my__server']);

    expect(host.registry.list().map((entry) => entry.tool.name)).toContain('mcp__good__echo');
    const warnings = host.events.filter((event) => event.type === 'session.warning');
    const messages = warnings.map((event) => ('message' in event ? String(event.message) : ''));
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('mcpServers.typo.comand: unknown key'),
        expect.stringContaining('mcpServers.github.args'),
        expect.stringContaining('mcpServers.empty: needs either "command"'),
        expect.stringContaining('mcpServers.web.header: unknown key'),
        expect.stringContaining('"my__server" is not usable in tool names'),
      ]),
    );
    expect(warnings.every((event) => 'code' in event && event.code === 'mcp_config_invalid')).toBe(true);
  });

  it('rejects a broken entry when the table is parsed as a whole, naming the server and the key', () => {
    let error: unknown;
    try {
      parseMcpServersConfig({ github: { command: 'npx', args: 'not-a-list' } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QuiverError);
    expect((error as QuiverError).code).toBe('config_invalid');
    expect((error as QuiverError).message).toContain('mcpServers.github.args');
    const reading = readMcpServersConfig({ typo: { comand: 'node' }, ok: { command: 'node' } });
    expect([...reading.servers.keys()]).toEqual(['ok']);
    expect(reading.invalid[0]).toMatchObject({
      server: 'typo',
      keyPath: ['comand'],
      unknownKey: 'comand',
      allowed: expect.arrayContaining(['command', 'args', 'env']),
    });
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
