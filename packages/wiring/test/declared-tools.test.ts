import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PARTY } from '../src/first-party-plugins.js';
import { createQuiver, type Quiver } from '../src/index.js';

// A first-party plugin's declared tools decide whether `quiver call <tool>` loads it: a tool it
// registers but does not declare would be missing from that call. Each configuration below loads
// every plugin and compares what each registered with what it declares. Plugins register their
// tools when loaded, from quiver.yaml's pluginConfig, not per personality.
describe('first-party plugins declare every tool they register', () => {
  const open: Quiver[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const quiver of open.splice(0)) await quiver.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const workspace = () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-declared-')));
    dirs.push(dir);
    return dir;
  };

  const configs: Record<string, Record<string, unknown>> = {
    'the embedded default': {},
  };

  for (const [name, config] of Object.entries(configs)) {
    it(`under ${name}`, async () => {
      const ws = workspace();
      const quiver = await createQuiver({ workspace: ws, config, trustProject: true });
      open.push(quiver);
      const declared = new Map(
        FIRST_PARTY.flatMap((plugin) =>
          plugin.declared ? [[plugin.declared.PLUGIN_ID, plugin.declared]] : [],
        ),
      );
      let checked = 0;
      for (const entry of quiver.host.registry.list()) {
        if (!FIRST_PARTY.some((plugin) => plugin.source === `@quiver/${entry.pluginId}`)) continue;
        const declaration = declared.get(entry.pluginId ?? '');
        if (declaration === undefined) {
          expect(entry.pluginId, `${entry.tool.name} comes from a plugin without a declaration`).toBe(
            'mcp-bridge',
          );
          continue;
        }
        // As registered: the names, aliases and kind that rules and names are read against.
        const { tool } = entry;
        expect(declaration.DECLARED_TOOLS, `${entry.pluginId} registers ${tool.name}`).toContainEqual({
          name: tool.name,
          ...(tool.aliases?.length ? { aliases: [...tool.aliases] } : {}),
          ...(tool.permission ? { permissionKind: tool.permission.kind } : {}),
          ...(tool.capabilities.tools ? { callsOtherTools: true } : {}),
        });
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(20);
      quiver.createSession().pool();
    });
  }

  it('onlyTools leaves out the plugins that do not declare the tool, and the MCP bridge without mcpServers', async () => {
    const ws = workspace();
    const quiver = await createQuiver({ workspace: ws, discoverConfig: false, onlyTools: ['read_file'] });
    open.push(quiver);
    const loaded = quiver.host
      .plugins()
      .loaded.map((plugin) => plugin.id)
      .sort();
    expect(loaded).toEqual(['tools-code']);
    const names = quiver
      .createSession()
      .pool()
      .definitions.map((d) => d.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('kanban_create');
  });

  it('onlyTools keeps the MCP bridge (an undeclared plugin) when mcpServers names a server', async () => {
    const quiver = await createQuiver({
      workspace: workspace(),
      config: { mcpServers: { notes: { command: 'node', args: ['notes-server.js'] } } },
      onlyTools: ['read_file'],
    });
    open.push(quiver);
    expect(
      quiver.host
        .plugins()
        .loaded.map((plugin) => plugin.id)
        .sort(),
    ).toEqual(['mcp-bridge', 'tools-code']);
    expect(quiver.mcpCatalog).toBeDefined();
  });

  it('onlyTools with a name no plugin declares (a Claude Code name, a typo) or a tool that runs others loads every plugin', async () => {
    for (const name of ['Bash', 'read_fil', 'repl']) {
      const quiver = await createQuiver({ workspace: workspace(), discoverConfig: false, onlyTools: [name] });
      open.push(quiver);
      // The bridge has nothing to give without mcpServers: it is left out, as when a tool is declared.
      expect(quiver.host.plugins().loaded).toHaveLength(FIRST_PARTY.length - 1);
      expect(quiver.host.plugins().loaded.map((plugin) => plugin.id)).not.toContain('mcp-bridge');
      expect(quiver.host.registry.unloaded?.()).toEqual([]);
    }
  });

  it('onlyTools with a declared alias loads the plugin whose tool has it', async () => {
    const quiver = await createQuiver({ workspace: workspace(), discoverConfig: false, onlyTools: ['Read'] });
    open.push(quiver);
    expect(
      quiver.host
        .plugins()
        .loaded.map((plugin) => plugin.id)
        .sort(),
    ).toEqual(['tools-code']);
  });

  it('lists the tools of the plugins left out as unloaded, with their plugin, aliases and kind', async () => {
    const quiver = await createQuiver({
      workspace: workspace(),
      discoverConfig: false,
      onlyTools: ['kanban_list'],
    });
    open.push(quiver);
    const unloaded = quiver.host.registry.unloaded?.() ?? [];
    expect(unloaded).toContainEqual({
      name: 'read_file',
      aliases: ['Read'],
      pluginId: 'tools-code',
      permissionKind: 'read',
    });
    expect(unloaded).toContainEqual({
      name: 'terminal_stop',
      pluginId: 'tools-terminal',
      permissionKind: 'custom',
    });
    expect(unloaded.some((tool) => tool.pluginId === 'tools-kanban')).toBe(false);
    expect(quiver.host.registry.get('read_file')).toBeUndefined();
  });

  it("mcpBridge: 'when-configured' leaves the bridge out of a host without mcpServers, and only then", async () => {
    const without = await createQuiver({
      workspace: workspace(),
      discoverConfig: false,
      mcpBridge: 'when-configured',
    });
    open.push(without);
    const ids = (quiver: Quiver) => quiver.host.plugins().loaded.map((plugin) => plugin.id);
    expect(ids(without)).toHaveLength(FIRST_PARTY.length - 1);
    expect(ids(without)).not.toContain('mcp-bridge');
    expect(without.mcpCatalog).toBeUndefined();
    const withServer = await createQuiver({
      workspace: workspace(),
      config: { mcpServers: { notes: { command: 'node', args: ['notes-server.js'] } } },
      mcpBridge: 'when-configured',
    });
    open.push(withServer);
    expect(ids(withServer)).toContain('mcp-bridge');
    const always = await createQuiver({ workspace: workspace(), discoverConfig: false });
    open.push(always);
    expect(ids(always)).toContain('mcp-bridge');
    await expect(
      createQuiver({ workspace: workspace(), discoverConfig: false, mcpBridge: 'never' as never }),
    ).rejects.toThrow(/mcpBridge must be "always" or "when-configured", not "never"/);
  });

  it('refuses an onlyTools that is not a list of names', async () => {
    await expect(
      createQuiver({ workspace: workspace(), discoverConfig: false, onlyTools: 'read_file' as never }),
    ).rejects.toThrow(/onlyTools must be a non-empty array of tool names, not "read_file"/);
    await expect(
      createQuiver({ workspace: workspace(), discoverConfig: false, onlyTools: [] }),
    ).rejects.toThrow(/onlyTools must be a non-empty array/);
  });
});
