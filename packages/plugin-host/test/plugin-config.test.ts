import path from 'node:path';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { definePlugin, defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compareConfigurations,
  PERSONALITY_DEFAULTS,
  type PersonalitySettings,
  parseConfig,
  QuiverHost,
} from '../src/index.js';
import { tempDir, write } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A plugin whose one tool answers with the settings it was given. */
const weather = definePlugin({
  id: 'weather',
  apiVersion: 1,
  version: '1.0.0',
  requires: ['config'],
  config: z.object({
    baseUrl: z.url({ error: 'must be the URL of the weather service' }),
    units: z.enum(['metric', 'imperial']).default('metric'),
  }),
  register(ctx) {
    const { baseUrl, units } = ctx.services.config;
    ctx.registerTool(
      defineTool({
        name: 'weather_settings',
        description: 'Says which weather service and units are in use.',
        input: z.object({}),
        capabilities: {},
        execute: () => ok(`${baseUrl} in ${units}`),
      }),
    );
  },
});

describe('plugin settings', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function hostIn(files: Record<string, string>) {
    const workspace = tempDir('quiver-config-');
    cleanups.push(workspace.cleanup);
    for (const [file, content] of Object.entries(files)) write(path.join(workspace.dir, file), content);
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      logger: silent,
      configPath: path.join(workspace.dir, 'quiver.yaml'),
      builtinPlugins: [{ definition: weather, source: 'test:weather' }],
    });
    cleanups.push(() => host.close());
    return host;
  }

  async function settingsSeen(host: QuiverHost) {
    const [result] = await host.createSession().execute([{ name: 'weather_settings', args: {} }]);
    return result;
  }

  it('gives the plugin its quiver.yaml settings parsed by its schema, defaults applied', async () => {
    const host = await hostIn({
      'quiver.yaml': 'pluginConfig:\n  weather:\n    baseUrl: https://weather.example\n',
      'personalities/default.yaml': 'plugins: [weather]\npermissions:\n  allow: [weather_settings]\n',
    });
    expect(host.plugins().failed).toEqual([]);
    expect(await settingsSeen(host)).toEqual({ ok: true, value: 'https://weather.example in metric' });
  });

  it('lists the settings a plugin declares, with their types and defaults, for `quiver plugins`', async () => {
    const host = await hostIn({
      'quiver.yaml': 'pluginConfig:\n  weather:\n    baseUrl: https://weather.example\n',
    });
    const loaded = host.plugins().loaded.find((plugin) => plugin.id === 'weather');
    expect(loaded?.settings).toEqual([
      { key: 'baseUrl', type: 'string', required: true },
      { key: 'units', type: '"metric" | "imperial"', required: false, default: 'metric' },
    ]);
  });

  it('lets the personality settings win over quiver.yaml, key by key', async () => {
    const host = await hostIn({
      'quiver.yaml': 'pluginConfig:\n  weather:\n    baseUrl: https://weather.example\n    units: metric\n',
      'personalities/default.yaml':
        'plugins:\n  - id: weather\n    config: { units: imperial }\npermissions:\n  allow: [weather_settings]\n',
    });
    expect(host.personality().plugins).toEqual(['weather']);
    expect(await settingsSeen(host)).toEqual({ ok: true, value: 'https://weather.example in imperial' });
  });

  it("refuses to load a plugin whose settings break its schema, with the schema's message and where to fix it", async () => {
    const host = await hostIn({
      'quiver.yaml': 'pluginConfig:\n  weather:\n    baseUrl: not a url\n    units: kelvin\n',
      'personalities/default.yaml': 'plugins: [weather]\n',
    });
    const [failure] = host.plugins().failed;
    expect(failure).toMatchObject({ plugin: 'weather', code: 'config_invalid', tools: [] });
    expect(failure?.message).toContain('baseUrl: must be the URL of the weather service');
    expect(failure?.message).toMatch(/units: .*"metric"/);
    expect(failure?.fix).toContain('`baseUrl`, `units`');
    expect(failure?.fix).toContain('pluginConfig.weather');
    expect(host.plugins().loaded.map((plugin) => plugin.id)).not.toContain('weather');
  });

  it('rejects a personality plugin entry with an unknown key and says what the entry allows', async () => {
    const host = await hostIn({
      'quiver.yaml': '{}\n',
      'personalities/default.yaml': 'plugins:\n  - id: weather\n    settings: { units: imperial }\n',
    });
    expect(() => host.personality()).toThrow(/plugins\.0\.settings: unknown key "settings"/);
    try {
      host.personality();
    } catch (error) {
      expect((error as { fix?: string }).fix).toMatch(
        /Remove plugins\.0\.settings .*allowed there are id, config/,
      );
      expect((error as { fix?: string }).fix).not.toContain('suggestion above');
    }
  });

  it('holds back plugin settings a personality changes until a person trusts them', () => {
    const project = (pluginConfig: PersonalitySettings['pluginConfig']) => ({
      config: parseConfig({}, 'test'),
      personalities: { dev: { ...structuredClone(PERSONALITY_DEFAULTS), id: 'dev', pluginConfig } },
    });
    const trusted = project({ weather: { baseUrl: 'https://weather.example' } });
    const current = project({ weather: { baseUrl: 'https://attacker.example' } });
    const result = compareConfigurations(trusted, current);
    expect(result.widening.map((change) => change.where)).toEqual(['personality dev: pluginConfig']);
    expect(result.effective.personalities.dev?.pluginConfig).toEqual({
      weather: { baseUrl: 'https://weather.example' },
    });
  });
});
