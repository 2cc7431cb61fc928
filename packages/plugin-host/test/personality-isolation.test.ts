import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { definePlugin, defineTool, ok } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuiverHost } from '../src/index.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function plugin(id: string, tool: string) {
  return definePlugin({
    id,
    apiVersion: 1,
    version: '1.0.0',
    register(ctx) {
      ctx.registerTool(
        defineTool({
          name: tool,
          description: `Tool ${tool} of ${id}; waits a little so calls overlap.`,
          input: z.object({}),
          capabilities: {},
          execute: async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return ok(`${tool} ran`);
          },
        }),
      );
    },
  });
}

describe('personalities in one process', () => {
  let host: QuiverHost | undefined;
  afterEach(async () => host?.close());

  it('never let concurrent sessions see or run each other’s tools, plugins or policies', async () => {
    host = await QuiverHost.create({
      sqlite: sqliteBackend,
      logger: silent,
      builtinPlugins: [
        { definition: plugin('alpha', 'alpha_tool'), source: 'test' },
        { definition: plugin('beta', 'beta_tool'), source: 'test' },
      ],
      embeddedPersonalities: {
        alpha: { id: 'alpha', plugins: ['alpha'], permissions: { allow: ['alpha_tool', 'beta_tool'] } },
        beta: { id: 'beta', plugins: ['beta'], permissions: { allow: ['beta_tool'], deny: ['alpha_tool'] } },
      },
    });
    const runs = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const personality = index % 2 === 0 ? 'alpha' : 'beta';
        const session = host!.createSession({ personality });
        const names = session.pool().definitions.map((definition) => definition.name);
        const results = await session.execute([
          { name: 'alpha_tool', args: {} },
          { name: 'beta_tool', args: {} },
        ]);
        return { personality, names, results };
      }),
    );
    for (const run of runs) {
      if (run.personality === 'alpha') {
        expect(run.names).toEqual(['alpha_tool']);
        expect(run.results.map((r) => r.ok)).toEqual([true, false]);
      } else {
        expect(run.names).toEqual(['beta_tool']);
        expect(run.results.map((r) => r.ok)).toEqual([false, true]);
      }
    }
    expect(host.policy('alpha').permissions.deny ?? []).toEqual([]);
    expect(host.policy('beta').permissions.deny).toEqual(['alpha_tool']);
  });
});
