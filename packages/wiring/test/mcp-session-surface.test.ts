import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const require = createRequire(import.meta.url);
const everything = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);

describe('what a session sees of the MCP servers quiver.yaml configures', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-mcp-surface-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  everything:\n    command: ${process.execPath}\n    args: [${JSON.stringify(everything)}, stdio]\ndefaultPersonality: with\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/with.yaml'),
      'id: with\nplugins: [mcp-bridge, tools-code]\nmcpServers:\n  everything: { includeTools: [echo] }\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/without.yaml'),
      'id: without\nplugins: [mcp-bridge, tools-code]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('lists the resource tools only for a personality that enables a server', () => {
    const without = names(quiver.createSession({ personality: 'without' }).pool());
    expect(without).not.toContain('list_mcp_resources');
    expect(without).not.toContain('read_mcp_resource');
    expect(without).toContain('read_file');
    const withServer = names(quiver.createSession({ personality: 'with' }).pool());
    expect(withServer).toEqual(expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource']));
  });

  it('exposes the instructions a server sent at initialization', async () => {
    const session = quiver.createSession({ personality: 'with' });
    session.pool();
    let status = quiver.mcpCatalog?.serverStatus().find((entry) => entry.server === 'everything');
    for (let attempt = 0; attempt < 200 && status?.state !== 'connected'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = quiver.mcpCatalog?.serverStatus().find((entry) => entry.server === 'everything');
    }
    expect(status?.state).toBe('connected');
    expect(status?.instructions).toEqual(expect.any(String));
    expect(status?.instructions?.length).toBeGreaterThan(20);
  });
});
