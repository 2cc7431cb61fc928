import path from 'node:path';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { definePlugin, defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuiverHost } from '../src/index.js';
import { tempDir, write } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A plugin whose tool reads its settings when it runs, as a plugin must to follow the personality. */
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
    const settings = ctx.services.config;
    ctx.registerTool(
      defineTool({
        name: 'weather_settings',
        description: 'Says which weather service and units are in use.',
        input: z.object({}),
        capabilities: {},
        execute: async () => {
          // Settings read after an await still belong to the call's personality.
          await new Promise((resolve) => setImmediate(resolve));
          return ok(`${settings.baseUrl} in ${settings.units}; keys ${Object.keys(settings).join(',')}`);
        },
      }),
    );
  },
});

const QUIVER_YAML = 'pluginConfig:\n  weather:\n    baseUrl: https://weather.example\n';
const allow = 'permissions:\n  allow: [weather_settings]\n';

describe('plugin settings per personality', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function hostIn(files: Record<string, string>) {
    const workspace = tempDir('quiver-personal-settings-');
    cleanups.push(workspace.cleanup);
    for (const [file, content] of Object.entries(files)) write(path.join(workspace.dir, file), content);
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      logger: silent,
      configPath: path.join(workspace.dir, 'quiver.yaml'),
      builtinPlugins: [{ definition: weather, source: 'test:weather' }],
    });
    cleanups.push(() => host.close());
    return { host, dir: workspace.dir };
  }

  async function settingsSeen(host: QuiverHost, personality?: string) {
    const session = host.createSession(personality === undefined ? {} : { personality });
    const [result] = await session.execute([{ name: 'weather_settings', args: {} }]);
    return result;
  }

  it("gives each personality's sessions that personality's settings over quiver.yaml's, in one host", async () => {
    const { host } = await hostIn({
      'quiver.yaml': QUIVER_YAML,
      'personalities/default.yaml': `plugins:\n  - id: weather\n    config: { units: imperial }\n${allow}`,
      'personalities/travel.yaml': `plugins:\n  - id: weather\n    config: { baseUrl: https://travel.example }\n${allow}`,
      'personalities/plain.yaml': `plugins: [weather]\n${allow}`,
    });
    const [travel, starting, plain] = await Promise.all([
      settingsSeen(host, 'travel'),
      settingsSeen(host),
      settingsSeen(host, 'plain'),
    ]);
    expect(starting).toEqual({ ok: true, value: 'https://weather.example in imperial; keys baseUrl,units' });
    expect(travel).toEqual({ ok: true, value: 'https://travel.example in metric; keys baseUrl,units' });
    // Not the starting personality's settings: quiver.yaml's alone.
    expect(plain).toEqual({ ok: true, value: 'https://weather.example in metric; keys baseUrl,units' });
  });

  it('refuses a personality whose settings break the schema when it is first used, naming its file and key', async () => {
    const { host, dir } = await hostIn({
      'quiver.yaml': QUIVER_YAML,
      'personalities/default.yaml': `plugins: [weather]\n${allow}`,
      'personalities/travel.yaml': `plugins:\n  - id: weather\n    config: { units: kelvin }\n${allow}`,
    });
    expect(host.plugins().failed).toEqual([]);
    expect(await settingsSeen(host)).toMatchObject({ ok: true });
    let error: { code?: string; message?: string; fix?: string } | undefined;
    try {
      host.createSession({ personality: 'travel' });
    } catch (caught) {
      error = caught as typeof error;
    }
    expect(error?.code).toBe('config_invalid');
    expect(error?.message).toContain(
      `The settings personality "travel" (${path.join(dir, 'personalities/travel.yaml')}) gives plugin "weather" do not match its schema`,
    );
    expect(error?.message).toMatch(/units: .*"metric"/);
    expect(error?.fix).toContain('`units`');
    expect(error?.fix).toContain('{ id: weather, config }');
  });
});
