import type { PluginContext, Tool, ToolResultReducer } from '@quiver/types';
import { TOOL_NAME_PATTERN } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { terminalPlugin } from '../src/index.js';

describe('terminalPlugin', () => {
  it('registers the terminal tools and the terminal reducer', async () => {
    const tools: Tool[] = [];
    const reducers: ToolResultReducer[] = [];
    const context: PluginContext = {
      pluginId: terminalPlugin.id,
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
    await terminalPlugin.register(context);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'terminal',
      'terminal_list',
      'terminal_read',
      'terminal_start',
      'terminal_stop',
      'terminal_write',
    ]);
    expect(tools.every((tool) => TOOL_NAME_PATTERN.test(tool.name))).toBe(true);
    expect(reducers.map((reducer) => reducer.tool)).toEqual(['terminal']);
    expect(tools.find((tool) => tool.name === 'terminal')?.permission?.kind).toBe('shell');
  });
});
