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

describe('MCP servers from quiver.yaml, gated by personality', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-mcp-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  everything:\n    command: ${process.execPath}\n    args: [${JSON.stringify(everything)}, stdio]\ndefaultPersonality: many\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/many.yaml'),
      'id: many\nplugins: [mcp-bridge, tools-code]\nmcpServers:\n  everything: {}\ndeferLoading:\n  enabled: true\n  maxTools: 5\npermissions:\n  allow: [mcp__everything, tool_search, read_file]\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/no-mcp.yaml'),
      'id: no-mcp\nplugins: [mcp-bridge, tools-code]\npermissions:\n  allow: [mcp__everything]\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/narrow.yaml'),
      'id: narrow\nplugins: [mcp-bridge]\nmcpServers:\n  everything: { includeTools: [echo] }\npermissions:\n  allow: [mcp__everything]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('defers MCP tools behind tool_search when the pool is over the threshold, and still runs them', async () => {
    const session = quiver.createSession();
    await session.ready();
    const pool = session.pool();
    const echo = pool.definitions.find((d) => d.name === 'mcp__everything__echo');
    expect(echo?.deferLoading).toBe(true);
    expect(pool.definitions.find((d) => d.name === 'tool_search')).toBeDefined();
    expect(pool.definitions.find((d) => d.name === 'read_file')?.deferLoading).toBeFalsy();

    const [found] = await session.execute([{ name: 'tool_search', args: { query: 'echo message back' } }]);
    expect(found?.ok && found.value).toContain('mcp__everything__echo');
    const [echoed] = await session.execute([
      { name: 'mcp__everything__echo', args: { message: 'hello from quiver' } },
    ]);
    expect(echoed?.ok && echoed.value).toContain('hello from quiver');
    // Found tools are expanded in the next definitions.
    expect(
      session.pool().definitions.find((d) => d.name === 'mcp__everything__echo')?.deferLoading,
    ).toBeFalsy();
  });

  it('hides and refuses a server the personality does not enable', async () => {
    const session = quiver.createSession({ personality: 'no-mcp' });
    expect(session.pool().definitions.some((d) => d.name.startsWith('mcp__'))).toBe(false);
    const [result] = await session.execute([{ name: 'mcp__everything__echo', args: { message: 'x' } }]);
    expect(result).toMatchObject({ ok: false });
  });

  it('applies a per-server include list', async () => {
    const session = quiver.createSession({ personality: 'narrow' });
    await session.ready();
    const names = session.pool().definitions.map((d) => d.name);
    expect(names.filter((name) => name.startsWith('mcp__'))).toEqual(['mcp__everything__echo']);
  });

  it("lets a session read the resources of the servers its personality enables, and no other's", async () => {
    const allow = ['list_mcp_resources', 'read_mcp_resource(everything:*)'];
    const uri = 'demo://resource/static/document/architecture.md';
    const narrow = quiver.createSession({ personality: 'narrow', permissions: { allow } });
    await narrow.ready();
    const [listed, read] = await narrow.execute([
      { name: 'list_mcp_resources', args: {} },
      { name: 'read_mcp_resource', args: { server: 'everything', uri } },
    ]);
    expect(listed?.ok && listed.value).toContain(`everything: ${uri}`);
    expect(read?.ok && read.value).toContain('# Everything Server');
    const other = quiver.createSession({ personality: 'no-mcp', permissions: { allow } });
    const [hidden] = await other.execute([
      { name: 'read_mcp_resource', args: { server: 'everything', uri } },
    ]);
    // A personality that enables no MCP server does not get the resource tools at all.
    expect(hidden).toMatchObject({ ok: false, code: 'not_available' });
    expect(hidden?.ok === false && hidden.error).toContain('the personality enables no MCP server');
  });
});
