import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkDependency, REPO, write } from './helpers.js';
import { connectStdio, serveWorkspace, textOf } from './serve-fixtures.js';

/** A plugin with a tool that declares an outputSchema and one whose structured part is only metadata. */
const COUNTING_PLUGIN = `import { z } from 'zod';
export default { id: 'counting', apiVersion: 1, version: '1.0.0', register(ctx) {
  ctx.registerTool({ name: 'count_files', description: 'Counts files.', capabilities: {},
    input: z.object({}),
    outputSchema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
    execute: () => ({ ok: true, value: '3 files', structured: { count: 3 } }) });
  ctx.registerTool({ name: 'show_notes', description: 'Shows the notes.', capabilities: {},
    input: z.object({}),
    execute: () => ({ ok: true, value: 'first note\\nsecond note', structured: { lines: 2 } }) });
} };
`;

describe('quiver serve results', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('sends structuredContent for a tool with an outputSchema and leaves out one that lacks the text', async () => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const dir = workspace.dir;
    write(
      path.join(dir, 'counting/package.json'),
      JSON.stringify({
        name: 'counting',
        version: '1.0.0',
        type: 'module',
        quiver: { plugin: './plugin.js' },
      }),
    );
    write(path.join(dir, 'counting/plugin.js'), COUNTING_PLUGIN);
    linkDependency(path.join(dir, 'counting'), 'zod', path.join(REPO, 'packages/types/node_modules/zod'));
    write(path.join(dir, 'quiver.yaml'), 'plugins:\n  - ./counting\ndefaultPersonality: dev\n');
    write(
      path.join(dir, 'personalities/dev.yaml'),
      'id: dev\nplugins: [counting]\npermissions:\n  allow: [count_files, show_notes]\n',
    );
    const { client } = await connectStdio(dir);
    cleanups.push(() => client.close());

    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'count_files');
    expect(listed?.outputSchema).toMatchObject({ properties: { count: { type: 'number' } } });
    const counted = await client.callTool({ name: 'count_files', arguments: {} });
    expect(textOf(counted)).toBe('3 files');
    expect(counted.structuredContent).toEqual({ count: 3 });

    const notes = await client.callTool({ name: 'show_notes', arguments: {} });
    expect(textOf(notes)).toBe('first note\nsecond note');
    expect(notes.structuredContent).toBeUndefined();
  });
});
