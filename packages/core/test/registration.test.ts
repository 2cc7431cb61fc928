import type { QuiverError } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultToolRegistry, deriveJsonSchema } from '../src/index.js';
import { echoTool } from './support.js';

function thrown(action: () => unknown): QuiverError {
  try {
    action();
  } catch (error) {
    return error as QuiverError;
  }
  throw new Error('expected the action to throw');
}

describe('tool registration', () => {
  it('names both owners when a second plugin registers a tool name that is taken', () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('x'), { pluginId: 'a' });
    const error = thrown(() => registry.register(echoTool('x'), { pluginId: 'b' }));
    expect(error.code).toBe('duplicate_tool');
    expect(error.message).toBe(
      'Tool "x" is already registered by plugin "a"; plugin "b" tried to register it again',
    );
    expect(error.fix).toBeTruthy();
    expect(registry.get('x')?.pluginId).toBe('a');
  });

  it('names the host as owner when a tool without a plugin clashes', () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('x'));
    expect(thrown(() => registry.register(echoTool('x'), { pluginId: 'b' })).message).toBe(
      'Tool "x" is already registered by the host; plugin "b" tried to register it again',
    );
  });

  it('rejects tool names outside 1–64 letters, digits, underscores and dashes', () => {
    const registry = new DefaultToolRegistry();
    for (const name of ['', 'has space', 'dot.name', 'x'.repeat(65)]) {
      expect(thrown(() => registry.register(echoTool(name))).code).toBe('config_invalid');
    }
    expect(registry.list()).toEqual([]);
  });

  it('registers nothing from a batch when one of its tools is a duplicate', () => {
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('taken'), { pluginId: 'first' });
    expect(() =>
      registry.registerAll([echoTool('fresh'), echoTool('taken')], { pluginId: 'second' }),
    ).toThrow(/taken/);
    expect(registry.get('fresh')).toBeUndefined();
  });

  it('removes a batch through the function registerAll returns', () => {
    const registry = new DefaultToolRegistry();
    const unregister = registry.registerAll([echoTool('one'), echoTool('two')], { pluginId: 'p' });
    expect(registry.list().map((entry) => entry.tool.name)).toEqual(['one', 'two']);
    unregister();
    expect(registry.list()).toEqual([]);
  });

  it('does not remove a newer registration of the same name through an old unregister function', () => {
    const registry = new DefaultToolRegistry();
    const unregisterOld = registry.register(echoTool('x'), { pluginId: 'old' });
    registry.unregister('x');
    registry.register(echoTool('x'), { pluginId: 'new' });
    unregisterOld();
    expect(registry.get('x')?.pluginId).toBe('new');
  });

  it('tells change listeners about every register and unregister until they unsubscribe', () => {
    const registry = new DefaultToolRegistry();
    let changes = 0;
    const unsubscribe = registry.onChange(() => {
      changes += 1;
    });
    registry.register(echoTool('a'));
    registry.registerAll([echoTool('b'), echoTool('c')]);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(changes).toBe(3);
    unsubscribe();
    registry.register(echoTool('d'));
    expect(changes).toBe(3);
  });

  it('lists tools by toolset and by current availability', () => {
    const registry = new DefaultToolRegistry();
    let online = true;
    registry.register(echoTool('read', { toolset: 'files' }));
    registry.register(echoTool('write', { toolset: 'files', isAvailable: () => online }));
    registry.register(
      echoTool('shell', {
        toolset: 'terminal',
        isAvailable: () => ({ available: false, reason: 'no shell' }),
      }),
    );
    expect(registry.getForToolset('files').map((entry) => entry.tool.name)).toEqual(['read', 'write']);
    expect(registry.getAvailable().map((entry) => entry.tool.name)).toEqual(['read', 'write']);
    online = false;
    expect(registry.getAvailable().map((entry) => entry.tool.name)).toEqual(['read']);
  });
});

describe('JSON Schema for the model', () => {
  it('derives a draft 2020-12 schema from the zod input without a $schema key', () => {
    const registry = new DefaultToolRegistry();
    registry.register(
      echoTool('echo', {
        input: z.object({ text: z.string().describe('What to echo'), times: z.number().int().default(1) }),
      }),
    );
    const parameters = registry.get('echo')?.parameters;
    expect(parameters).not.toHaveProperty('$schema');
    expect(parameters).toMatchObject({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'What to echo' },
        times: { type: 'integer', default: 1 },
      },
      required: ['text'],
    });
  });

  it('uses parametersJsonSchema as given instead of deriving one', () => {
    const registry = new DefaultToolRegistry();
    const given = { type: 'object', properties: { q: { type: 'string' } } };
    registry.register(echoTool('search', { parametersJsonSchema: given }));
    expect(registry.get('search')?.parameters).toEqual(given);
    expect(registry.toDefinitions()[0]?.parameters).toEqual(given);
  });

  it('converts the zod schema once at registration, never per definitions call or per execution', async () => {
    const input = z.object({ text: z.string() });
    let conversions = 0;
    // zod consults this hook whenever it converts the schema; counting its calls counts conversions.
    (input._zod as unknown as { toJSONSchema: () => object }).toJSONSchema = () => {
      conversions += 1;
      return { type: 'object', properties: { text: { type: 'string' } } };
    };
    const registry = new DefaultToolRegistry();
    registry.register(echoTool('echo', { input }));
    expect(conversions).toBe(1);
    for (let round = 0; round < 5; round++) registry.toDefinitions();
    await registry.executeParallel(
      [
        { name: 'echo', args: { text: 'a' } },
        { name: 'echo', args: { text: 'b' } },
      ],
      { sessionId: 's', personalityId: 'p', agent: { kind: 'main', id: 'a' }, turn: 1 },
    );
    expect(conversions).toBe(1);
  });

  it('refuses a schema zod cannot express, naming the tool', () => {
    const registry = new DefaultToolRegistry();
    const error = thrown(() => registry.register(echoTool('when', { input: z.object({ at: z.date() }) })));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('"when"');
    expect(error.fix).toContain('parametersJsonSchema');
    expect(registry.get('when')).toBeUndefined();
  });

  it('derives the input side of a schema with a transform', () => {
    const schema = z.object({ count: z.string().transform((value) => Number(value)) });
    expect(deriveJsonSchema(schema)).toMatchObject({ properties: { count: { type: 'string' } } });
  });
});
