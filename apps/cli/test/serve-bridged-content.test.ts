import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempDir, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const ANNOTATED_SERVER = path.join(REPO, 'apps/cli/test/fixtures/annotated-content-server.mjs');
const TOOL = 'mcp__reports__weekly_report';

describe('a bridged tool result through quiver serve', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("reaches the client with every block's annotations and what the resource link says of itself", async () => {
    const { dir, cleanup } = tempDir('quiver-serve-annotated-');
    cleanups.push(cleanup);
    write(
      path.join(dir, 'quiver.yaml'),
      [
        'defaultPersonality: dev',
        'mcpServers:',
        '  reports:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(ANNOTATED_SERVER)}]`,
        '',
      ].join('\n'),
    );
    write(
      path.join(dir, 'personalities/dev.yaml'),
      'id: dev\nplugins: [mcp-bridge]\nmcpServers:\n  reports: true\npermissions:\n  allow: [mcp__reports__*]\n',
    );
    const { client } = await connectStdio(dir);
    cleanups.push(() => client.close());

    // The server connects in the background: its tool is listed once it has.
    const deadline = Date.now() + 90_000;
    const listed = async () => (await client.listTools()).tools.some((tool) => tool.name === TOOL);
    while (!(await listed())) {
      if (Date.now() > deadline) throw new Error(`${TOOL} was never listed`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const result = await client.callTool({ name: TOOL, arguments: {} });
    expect(result.isError ?? false).toBe(false);
    const content = result.content as Array<Record<string, unknown>>;
    const ofType = (type: string) => content.filter((block) => block.type === type);

    expect(ofType('text')).toEqual([
      expect.objectContaining({
        text: expect.stringContaining('Week 47: 12 deploys, 0 incidents.'),
        annotations: { audience: ['user'], priority: 0.9, lastModified: '2026-11-20T10:00:00Z' },
      }),
    ]);
    expect(ofType('image')).toEqual([
      expect.objectContaining({
        mimeType: 'image/png',
        annotations: { audience: ['assistant'], priority: 0.2 },
      }),
    ]);
    expect(ofType('resource')).toEqual([
      expect.objectContaining({
        resource: expect.objectContaining({ uri: 'file:///reports/week-47.md', text: '# Week 47' }),
        annotations: { priority: 0.5, lastModified: '2026-11-21T08:30:00Z' },
      }),
    ]);
    expect(ofType('resource_link')).toEqual([
      {
        type: 'resource_link',
        uri: 'file:///reports/week-47.csv',
        name: 'week-47.csv',
        title: 'Raw deploy data, week 47',
        description: 'Every deploy of the week, one row each.',
        mimeType: 'text/csv',
        size: 20480,
        annotations: { audience: ['user', 'assistant'], priority: 0.4, lastModified: '2026-11-22T07:15:00Z' },
      },
    ]);
  }, 120_000);
});
