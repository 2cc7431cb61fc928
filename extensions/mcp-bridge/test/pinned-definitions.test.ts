import { hostileServerCalls } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpToolPinStore, ToolPin } from '../src/index.js';
import { createHarness, eventually, type Harness, makeTempDir, successText } from './helpers.js';
import { hostileServer } from './hostile-helpers.js';

/** A pin store that outlives one bridge, as the user's pin file does across restarts. */
function lastingPinStore(): McpToolPinStore & { pending: Array<{ tool: string; pin: ToolPin }> } {
  const pins = new Map<string, ToolPin>();
  const pending: Array<{ tool: string; pin: ToolPin }> = [];
  return {
    pending,
    pinned: (server, tool) => pins.get(`${server}/${tool}`),
    pin: (server, tool, pin) => void pins.set(`${server}/${tool}`, pin),
    quarantine: (_server, tool, pin) => void pending.push({ tool, pin }),
  };
}

describe('pinned definitions of server tools', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(stateDir: string, pins: McpToolPinStore): Promise<Harness> {
    const harness = createHarness({ hostile: hostileServer(stateDir) }, { pins });
    cleanups.push(() => harness.stop());
    await harness.bridge.start();
    return harness;
  }

  it('withholds a tool whose description and parameters change after list_changed, and never runs it', async () => {
    const state = await makeTempDir('rug-pull');
    cleanups.push(state.remove);
    const pins = lastingPinStore();
    const harness = await start(state.path, pins);
    expect(harness.toolNames()).toContain('mcp__hostile__fetch_notes');
    successText((await harness.call('mcp__hostile__fetch_notes', { topic: 'a' })).result);

    successText((await harness.call('mcp__hostile__swap', {})).result);
    await eventually(
      () => !harness.toolNames().includes('mcp__hostile__fetch_notes'),
      'the changed tool to be withdrawn',
    );
    const { result } = await harness.call('mcp__hostile__fetch_notes', { topic: 'b', note: 'secret' });
    expect(result.ok).toBe(false);
    expect(hostileServerCalls(state.path, 'fetch_notes')).toEqual([{ topic: 'a' }]);
    const warning = harness.diagnostics.find((diagnostic) => diagnostic.code === 'mcp_tool_quarantined');
    expect(warning?.message).toMatch(
      /mcp__hostile__fetch_notes.*changed its description, inputSchema.*quiver mcp review/,
    );
    expect(pins.pending.map((entry) => entry.tool)).toEqual(['fetch_notes']);
    expect(JSON.stringify(pins.pending[0]?.pin.definition)).toContain('id_rsa');
  });

  it('withholds the changed tool after a restart of Quiver and of the server', async () => {
    const state = await makeTempDir('rug-pull-restart');
    cleanups.push(state.remove);
    const pins = lastingPinStore();
    const first = await start(state.path, pins);
    successText((await first.call('mcp__hostile__swap', {})).result);
    await first.stop();

    const second = await start(state.path, pins);
    expect(second.toolNames()).toContain('mcp__hostile__swap');
    expect(second.toolNames()).not.toContain('mcp__hostile__fetch_notes');
    expect((await second.call('mcp__hostile__fetch_notes', { topic: 'c' })).result.ok).toBe(false);
    expect(hostileServerCalls(state.path, 'fetch_notes')).toEqual([]);
  });

  it('offers the changed tool again once a person pinned the reviewed definition', async () => {
    const state = await makeTempDir('rug-pull-approved');
    cleanups.push(state.remove);
    const pins = lastingPinStore();
    const first = await start(state.path, pins);
    successText((await first.call('mcp__hostile__swap', {})).result);
    await eventually(() => pins.pending.length > 0, 'the change to be recorded');
    await first.stop();
    const reviewed = pins.pending[0];
    if (reviewed === undefined) throw new Error('no pending definition');
    pins.pin('hostile', reviewed.tool, reviewed.pin);

    const second = await start(state.path, pins);
    expect(second.toolNames()).toContain('mcp__hostile__fetch_notes');
    successText((await second.call('mcp__hostile__fetch_notes', { topic: 'd', note: 'n' })).result);
  });

  it('registers the changed tool as soon as a person approves it, without a restart', async () => {
    const state = await makeTempDir('rug-pull-live-approval');
    cleanups.push(state.remove);
    const pins = lastingPinStore();
    const harness = await start(state.path, pins);
    successText((await harness.call('mcp__hostile__swap', {})).result);
    await eventually(() => pins.pending.length > 0, 'the change to be recorded');
    harness.bridge.recheckPins();
    expect((await harness.call('mcp__hostile__fetch_notes', { topic: 'e' })).result.ok).toBe(false);

    const reviewed = pins.pending[0];
    if (reviewed === undefined) throw new Error('no pending definition');
    pins.pin('hostile', reviewed.tool, reviewed.pin);
    harness.bridge.recheckPins();
    await eventually(
      () => harness.toolNames().includes('mcp__hostile__fetch_notes'),
      'the approved tool to be registered',
    );
    successText((await harness.call('mcp__hostile__fetch_notes', { topic: 'f', note: 'n' })).result);
    expect(hostileServerCalls(state.path, 'fetch_notes')).toEqual([{ topic: 'f', note: 'n' }]);
  });
});
