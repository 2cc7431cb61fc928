import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, type PluginConfigRecord, type PluginDefinition } from '../src/index.js';

describe('definePlugin with a config schema', () => {
  it('types ctx.services.config from the schema and keeps the schema on the definition', () => {
    const schema = z.object({ baseUrl: z.url(), retries: z.number().int().default(2) });
    const plugin = definePlugin({
      id: 'typed',
      apiVersion: 1,
      version: '1.0.0',
      requires: ['config'],
      config: schema,
      register(ctx) {
        expectTypeOf(ctx.services.config.baseUrl).toEqualTypeOf<string>();
        expectTypeOf(ctx.services.config.retries).toEqualTypeOf<number>();
        // @ts-expect-error a key the schema does not declare
        void ctx.services.config.token;
      },
    });
    expect(plugin.config).toBe(schema);
    // A typed plugin still goes wherever any plugin definition goes (the host's catalog).
    const list: PluginDefinition<any>[] = [plugin];
    expect(list).toHaveLength(1);
  });

  it('keeps the untyped record for a plugin without a schema', () => {
    definePlugin({
      id: 'untyped',
      apiVersion: 1,
      version: '1.0.0',
      requires: ['config'],
      register(ctx) {
        expectTypeOf(ctx.services.config).toEqualTypeOf<Readonly<PluginConfigRecord>>();
      },
    });
  });
});
