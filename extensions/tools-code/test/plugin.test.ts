import type { PluginContext, Tool, ToolResultReducer } from '@quiver/types';
import { TOOL_NAME_PATTERN } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import codePluginDefault, { codePlugin } from '../src/index.js';

async function registerAll(): Promise<{ tools: Tool[]; reducers: ToolResultReducer[] }> {
  const tools: Tool[] = [];
  const reducers: ToolResultReducer[] = [];
  const ctx: PluginContext = {
    pluginId: 'tools-code',
    registerTool: (tool) => {
      tools.push(tool);
      return () => undefined;
    },
    registerReducer: (reducer) => {
      reducers.push(reducer);
      return () => undefined;
    },
    registerHook: () => () => undefined,
    registerBackend: () => () => undefined,
    services: {},
  };
  await codePlugin.register(ctx);
  return { tools, reducers };
}

describe('codePlugin', () => {
  it('registers every code tool with the aliases prompts use, and the read_file reducer', async () => {
    const { tools, reducers } = await registerAll();
    expect(codePluginDefault).toBe(codePlugin);
    expect(codePlugin).toMatchObject({ id: 'tools-code', apiVersion: 1 });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'apply_patch',
      'edit_file',
      'file_search',
      'grep_search',
      'list_dir',
      'multi_edit',
      'read_file',
      'write_file',
    ]);
    const aliases = Object.fromEntries(
      tools.flatMap((tool) => (tool.aliases ?? []).map((alias) => [alias, tool.name])),
    );
    expect(aliases).toMatchObject({
      Read: 'read_file',
      Write: 'write_file',
      Edit: 'edit_file',
      MultiEdit: 'multi_edit',
      Grep: 'grep_search',
      Glob: 'file_search',
    });
    expect(reducers.map((reducer) => reducer.tool)).toEqual(['read_file']);
    for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME_PATTERN);
  });

  it('declares read reach for readers and write reach for writers, with permission paths', async () => {
    const { tools } = await registerAll();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['read_file', 'list_dir', 'file_search', 'grep_search']) {
      expect(byName.get(name)?.capabilities).toEqual({ fs_reach: { mode: 'read' } });
      expect(byName.get(name)?.permission?.kind).toBe('read');
    }
    for (const name of ['write_file', 'edit_file', 'multi_edit', 'apply_patch']) {
      expect(byName.get(name)?.capabilities).toEqual({ fs_reach: { mode: 'write' } });
      expect(byName.get(name)?.permission?.kind).toBe('write');
    }
    const edit = byName.get('edit_file')?.permission;
    expect(
      edit && 'paths' in edit ? edit.paths({ path: 'src/a.ts', old_string: 'a', new_string: 'b' }) : [],
    ).toEqual(['src/a.ts']);
  });
});
