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
        FIRST_PARTY.map((plugin) => [plugin.source.replace('@quiver/', ''), plugin.declaredTools]),
      );
      let checked = 0;
      for (const entry of quiver.host.registry.list()) {
        const declaration = declared.get(entry.pluginId ?? '');
        if (declaration === undefined) continue;
        expect(declaration, `${entry.pluginId} registers ${entry.tool.name}`).toContain(entry.tool.name);
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(20);
      quiver.createSession().pool();
    });
  }

  it('onlyTools leaves out the plugins that do not declare the tool, and keeps undeclared ones', async () => {
    const ws = workspace();
    const quiver = await createQuiver({ workspace: ws, discoverConfig: false, onlyTools: ['read_file'] });
    open.push(quiver);
    const loaded = quiver.host
      .plugins()
      .loaded.map((plugin) => plugin.id)
      .sort();
    expect(loaded).toEqual(['mcp-bridge', 'tools-code']);
    const names = quiver
      .createSession()
      .pool()
      .definitions.map((d) => d.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('kanban_create');
  });

  it('onlyTools with a name no plugin declares (an alias) loads every plugin', async () => {
    const quiver = await createQuiver({ workspace: workspace(), discoverConfig: false, onlyTools: ['Read'] });
    open.push(quiver);
    expect(quiver.host.plugins().loaded).toHaveLength(FIRST_PARTY.length);
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
