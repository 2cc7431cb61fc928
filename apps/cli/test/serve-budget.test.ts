import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, REPO, write } from './helpers.js';
import { connectStdio, serveWorkspace, textOf } from './serve-fixtures.js';

/** A plugin whose tool answers with its matches as JSON text and as the same structured part. */
const BULKY_PLUGIN = `import { z } from 'zod';
export default { id: 'bulky', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'list_matches', description: 'Lists matches as JSON.', capabilities: {},
    input: z.object({ count: z.number().int() }),
    execute: ({ count }) => {
      const structured = { matches: Array.from({ length: count }, (_, line) => ({ path: 'src/file-' + line + '.ts', line })) };
      return { ok: true, value: JSON.stringify(structured, null, 2), structured };
    } });
} };
`;

describe('quiver serve and the result budget', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('does not forward a structuredContent that would pass the budget, and keeps one that fits and says what the text says', async () => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const dir = workspace.dir;
    write(
      path.join(dir, 'bulky/package.json'),
      JSON.stringify({ name: 'bulky', version: '1.0.0', type: 'module', quiver: { plugin: './plugin.js' } }),
    );
    write(path.join(dir, 'bulky/plugin.js'), BULKY_PLUGIN);
    linkDependency(path.join(dir, 'bulky'), 'zod', path.join(REPO, 'packages/types/node_modules/zod'));
    write(path.join(dir, 'quiver.yaml'), 'plugins:\n  - ./bulky\ndefaultPersonality: dev\n');
    write(
      path.join(dir, 'personalities/dev.yaml'),
      'id: dev\nplugins: [bulky]\nbudget:\n  resultChars: 2000\npermissions:\n  allow: [list_matches]\n',
    );
    const { client } = await connectStdio(dir);
    cleanups.push(() => client.close());

    const big = await client.callTool({ name: 'list_matches', arguments: { count: 5_000 } });
    expect(big.isError).toBeFalsy();
    expect(textOf(big)).toContain('"path": "src/file-0.ts"');
    expect(big.structuredContent).toBeUndefined();
    expect(JSON.stringify(big).length).toBeLessThan(2_500);

    const small = await client.callTool({ name: 'list_matches', arguments: { count: 2 } });
    expect(small.structuredContent).toEqual({
      matches: [
        { path: 'src/file-0.ts', line: 0 },
        { path: 'src/file-1.ts', line: 1 },
      ],
    });
  });
});
