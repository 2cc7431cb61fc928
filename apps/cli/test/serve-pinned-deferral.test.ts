import path from 'node:path';
import { hostileFetchNotesCalls, hostileServerYaml } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';
import { searchTools } from './serve-catalog-fixtures.js';
import { connectStdio, textOf } from './serve-fixtures.js';

describe('the stable call path of quiver serve and a server tool whose definition changed after it was pinned', () => {
  const dirs = tempDirs('quiver-serve-pins-');
  afterEach(dirs.cleanup);

  it('runs the tool neither by name nor through call_tool, though the rules allow it', async () => {
    const workspace = dirs.make();
    const state = dirs.make();
    const xdg = dirs.make();
    write(
      path.join(workspace, 'quiver.yaml'),
      ['defaultPersonality: dev', ...hostileServerYaml(state), ''].join('\n'),
    );
    // Deferred whatever the size, so the hostile tools are reached only through the stable path.
    write(
      path.join(workspace, 'personalities/dev.yaml'),
      'plugins: [mcp-bridge]\nmcpServers:\n  hostile: true\ndeferLoading:\n  enabled: true\n  maxTools: 1\npermissions:\n  allow: [tool_search, mcp__hostile__*]\n',
    );
    const env = { XDG_DATA_HOME: xdg };
    const run = (args: string[]) => quiver(['--trust-project', ...args], { cwd: workspace, env });
    expect((await run(['call', 'mcp__hostile__fetch_notes', '--args', '{"topic":"a"}'])).stdout).toContain(
      'notes about a',
    );
    expect((await run(['call', 'mcp__hostile__swap'])).stdout).toContain('swapped');

    const { client } = await connectStdio(workspace, { env });
    try {
      await expect
        .poll(() => searchTools(client, '/^mcp__hostile__swap$/'), { timeout: 20_000 })
        .toEqual(['mcp__hostile__swap']);
      expect(await searchTools(client, '/^mcp__hostile__fetch_notes$/')).toEqual([]);
      await expect(
        client.callTool({ name: 'mcp__hostile__fetch_notes', arguments: { topic: 'b', note: 'secret' } }),
      ).rejects.toMatchObject({ code: -32602 });
      const through = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'mcp__hostile__fetch_notes', arguments: { topic: 'c', note: 'secret' } },
      });
      expect(through.isError).toBe(true);
      expect(textOf(through)).toContain('mcp__hostile__fetch_notes');
      expect(hostileFetchNotesCalls(state)).toEqual([{ topic: 'a' }]);
    } finally {
      await client.close();
    }
  }, 120_000);
});
