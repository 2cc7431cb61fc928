import { definePlugin, defineTool, ok } from '@quiver/types';
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
    await expect(createTestHost({ plugins: [broken] })).rejects.toThrow(
      /broken \[plugin_register_failed\].*no database/,
    );
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
});
