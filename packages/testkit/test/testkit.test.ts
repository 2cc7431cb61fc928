import { definePlugin, defineTool, ok, QuiverError } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkPluginContract, createTestHost, expectPluginContract } from '../src/index.js';

const greet = defineTool({
  name: 'greet',
  description: 'Greets a person by name.',
  input: z.object({ name: z.string() }),
  capabilities: {},
  execute: ({ name }) => ok(`Hello, ${name}!`, { structured: { name } }),
});

const goodPlugin = definePlugin({
  id: 'greeter',
  apiVersion: 1,
  version: '1.0.0',
  register(ctx) {
    ctx.registerTool(greet);
    ctx.registerReducer({ tool: 'greet', reduce: (result) => result });
  },
});

describe('@quiver/testkit', () => {
  it('runs a plugin through the real host and records the lifecycle events', async () => {
    const host = await createTestHost({ plugins: [goodPlugin] });
    try {
      expect(await host.callTool('greet', { name: 'Ada' })).toEqual({
        ok: true,
        value: 'Hello, Ada!',
        structured: { name: 'Ada' },
      });
      expect(host.events.map((event) => event.type)).toEqual([
        'session.tools_updated',
        'tool.user_requested',
        'tool.execution_start',
        'tool.execution_complete',
      ]);
      expect(host.definitions().map((definition) => definition.name)).toEqual(['greet']);
      expect(await host.callTool('greet', { name: 42 })).toMatchObject({ ok: false, code: 'input_invalid' });
    } finally {
      await host.close();
    }
  });

  it('fails loudly when a plugin does not load', async () => {
    const broken = definePlugin({
      id: 'broken',
      apiVersion: 1,
      version: '1.0.0',
      register() {
        throw new Error('no database');
      },
    });
    const failure = createTestHost({ plugins: [broken] });
    await expect(failure).rejects.toThrow(/broken \[plugin_register_failed\].*no database/);
    // The host's error keeps its code and fix, as `quiver plugins` would show them.
    await expect(failure).rejects.toMatchObject({
      code: 'plugin_register_failed',
      fix: expect.stringContaining('Fix the plugin'),
    });
  });

  it('passes a plugin that keeps the contract', async () => {
    await expect(expectPluginContract(goodPlugin)).resolves.toBeUndefined();
  });

  it('lists every contract problem of a plugin that breaks it', async () => {
    const sloppy = definePlugin({
      id: 'sloppy',
      apiVersion: 1,
      version: '1.0.0',
      register(ctx) {
        ctx.registerTool(defineTool({ ...greet, name: 'has spaces', description: '' }));
        ctx.registerTool(defineTool({ ...greet, name: 'scalar_input', input: z.string() as never }));
        ctx.registerReducer({
          tool: 'greet',
          reduce: (result) => (result.ok ? { ...result, value: `${result.value}${result.value}!` } : result),
        });
        ctx.registerReducer({
          tool: 'scalar_input',
          reduce: (result) => (result.ok ? { ok: true, value: result.value.slice(0, 1) } : result),
        });
      },
    });
    const problems = await checkPluginContract(sloppy);
    const text = problems.map((p) => `${p.subject}: ${p.problem}`);
    expect(text).toEqual(
      expect.arrayContaining([
        'has spaces: name must be 1–64 chars of [a-zA-Z0-9_-]',
        'has spaces: description missing or shorter than 10 characters',
        'scalar_input: input schema must be an object schema, got type string',
        expect.stringMatching(/^reducer greet: grows a \d+-char ok result/),
        'reducer scalar_input: drops structured data',
      ]),
    );
    await expect(expectPluginContract(sloppy)).rejects.toThrow(/Plugin "sloppy" breaks the contract/);
  });

  describe('a plugin with typed settings', () => {
    const weather = definePlugin({
      id: 'weather',
      apiVersion: 1,
      version: '1.0.0',
      requires: ['config'],
      config: z.object({ city: z.string().min(1, 'must name a city') }),
      register(ctx) {
        const { city } = ctx.services.config;
        ctx.registerTool(
          defineTool({
            name: 'weather_city',
            description: 'Says which city the forecasts are for.',
            input: z.object({}),
            capabilities: {},
            execute: () => ok(city),
          }),
        );
      },
    });

    it('keeps the contract when given settings its schema accepts', async () => {
      await expect(expectPluginContract(weather, { config: { city: 'Oslo' } })).resolves.toBeUndefined();
    });

    it("fails the contract with the host's code, the schema's message and the fix when settings are missing", async () => {
      const failure = expectPluginContract(weather);
      await expect(failure).rejects.toBeInstanceOf(QuiverError);
      await expect(failure).rejects.toMatchObject({
        code: 'config_invalid',
        message: expect.stringContaining('city:'),
        fix: expect.stringContaining('pluginConfig.weather'),
      });
    });

    it('runs with settings given as quiver.yaml would', async () => {
      const host = await createTestHost({
        plugins: [weather],
        config: { pluginConfig: { weather: { city: 'Lima' } } },
      });
      try {
        expect(await host.callTool('weather_city')).toEqual({ ok: true, value: 'Lima' });
      } finally {
        await host.close();
      }
    });
  });

  describe('beside the first-party plugins', () => {
    const clashing = definePlugin({
      id: 'my-files',
      apiVersion: 1,
      version: '1.0.0',
      register(ctx) {
        ctx.registerTool(defineTool({ ...greet, name: 'read_file', description: 'Reads a file my way.' }));
      },
    });

    it('passes a plugin whose tool takes a first-party name when checked alone', async () => {
      await expect(checkPluginContract(clashing)).resolves.toEqual([]);
    });

    it('fails a plugin whose tool takes a first-party name, as the CLI would', async () => {
      const problems = await checkPluginContract(clashing, { firstPartyPlugins: true });
      expect(problems).toEqual([
        expect.objectContaining({
          subject: 'my-files',
          code: 'plugin_duplicate_tool',
          problem: expect.stringContaining('"read_file", which plugin "tools-code" already registers'),
          fix: expect.stringContaining('Rename the tool in "my-files"'),
        }),
      ]);
      await expect(createTestHost({ plugins: [clashing], firstPartyPlugins: true })).rejects.toMatchObject({
        code: 'plugin_duplicate_tool',
      });
    });

    it('passes a plugin with names of its own beside them', async () => {
      await expect(expectPluginContract(goodPlugin, { firstPartyPlugins: true })).resolves.toBeUndefined();
    });
  });
});
