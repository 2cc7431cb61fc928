import { afterEach, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';
import { type McpWorkspace, mcpWorkspace } from './mcp-helpers.js';

const open: Quiver[] = [];
const made: McpWorkspace[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((quiver) => quiver.close()));
  for (const workspace of made.splice(0)) workspace.remove();
});

function twoPersonalities(): McpWorkspace {
  const workspace = mcpWorkspace(
    { alpha: {}, beta: {}, gamma: {} },
    {
      one: 'plugins: [mcp-bridge]\nmcpServers:\n  alpha: {}\npermissions:\n  allow: [mcp__alpha]\n',
      two: 'plugins: [mcp-bridge]\nmcpServers:\n  beta: {}\npermissions:\n  allow: [mcp__beta]\n',
      files:
        'plugins: [mcp-bridge, tools-code]\nmcpServers:\n  alpha: {}\npermissions:\n  allow: [read_file]\n',
    },
    'one',
  );
  made.push(workspace);
  return workspace;
}

async function eventually(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 20_000) throw new Error('the condition did not become true within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function openQuiver(workspace: McpWorkspace): Promise<Quiver> {
  const quiver = await createQuiver({ workspace: workspace.workspace, trustProject: true });
  open.push(quiver);
  return quiver;
}

describe('MCP servers start lazily, per personality', () => {
  it('starts no server when Quiver opens, and a session’s servers when it waits to be ready', async () => {
    const workspace = twoPersonalities();
    const quiver = await openQuiver(workspace);
    expect(workspace.starts('alpha')).toBe(0);

    const session = quiver.createSession();
    await session.ready();
    expect(workspace.starts('alpha')).toBe(1);
    expect(session.pool().definitions.map((definition) => definition.name)).toContain('mcp__alpha__echo');
    expect(workspace.starts('beta')).toBe(0);
    expect(workspace.starts('gamma')).toBe(0);
  });

  it('starts the servers of a second personality on its first call, and none that no personality in use enabled', async () => {
    const workspace = twoPersonalities();
    const quiver = await openQuiver(workspace);
    await quiver.createSession().ready();

    const other = quiver.createSession({ personality: 'two' });
    const [result] = await other.execute([{ name: 'mcp__beta__echo', args: { text: 'from two' } }]);
    expect(result).toMatchObject({ ok: true, value: 'from two' });
    await quiver.createSession({ personality: 'two' }).ready();

    expect(workspace.starts('alpha')).toBe(1);
    expect(workspace.starts('beta')).toBe(1);
    expect(workspace.starts('gamma')).toBe(0);
  });

  it('starts no server for a session that only calls a built-in tool', async () => {
    const workspace = twoPersonalities();
    const quiver = await openQuiver(workspace);
    const session = quiver.createSession({ personality: 'files' });
    const [result] = await session.execute([{ name: 'read_file', args: { path: 'quiver.yaml' } }]);
    expect(result).toMatchObject({ ok: true });
    await session.close();
    expect(workspace.starts('alpha')).toBe(0);
  });

  it('starts a session’s servers when it first lists its tools, and offers them once they connect', async () => {
    const workspace = twoPersonalities();
    const quiver = await openQuiver(workspace);
    const session = quiver.createSession();
    expect(session.pool().definitions.some((definition) => definition.name.startsWith('mcp__'))).toBe(false);
    await eventually(() =>
      session.pool().definitions.some((definition) => definition.name === 'mcp__alpha__echo'),
    );
    expect(workspace.starts('alpha')).toBe(1);
  });

  it('announces a server’s tools on the host bus when they arrive', async () => {
    const workspace = twoPersonalities();
    const quiver = await openQuiver(workspace);
    const changes: unknown[] = [];
    quiver.host.events.subscribe((event) => {
      if (event.type === 'tools.list_changed') changes.push(event);
    });
    await quiver.createSession().ready();
    expect(changes).toContainEqual(
      expect.objectContaining({
        pluginId: 'mcp-bridge',
        server: 'alpha',
        added: expect.arrayContaining(['mcp__alpha__echo']),
      }),
    );
  });

  it('lists the tools of a server that connects while others hang at initialize', async () => {
    const workspace = mcpWorkspace(
      {
        quick: {},
        stuck: { env: { FIXTURE_HANG_AT_CONNECT: '1' }, connectTimeoutMs: 20_000 },
      },
      {
        both: 'plugins: [mcp-bridge]\nmcpServers:\n  quick: {}\n  stuck: {}\npermissions:\n  allow: [mcp__quick]\n',
      },
      'both',
    );
    made.push(workspace);
    const quiver = await openQuiver(workspace);
    const failures: string[] = [];
    quiver.host.events.subscribe((event) => {
      if (event.type === 'session.warning' && event.code === 'mcp_connect_failed')
        failures.push(event.message);
    });
    const session = quiver.createSession();
    const [result] = await session.execute([{ name: 'mcp__quick__echo', args: { text: 'not held up' } }]);
    expect(result).toMatchObject({ ok: true, value: 'not held up' });
    // The stuck server is still within its 20 s connect timeout: nobody waited for it.
    expect(failures).toEqual([]);
    expect(session.pool().definitions.some((definition) => definition.name.startsWith('mcp__stuck__'))).toBe(
      false,
    );
  });
});
