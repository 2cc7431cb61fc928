import { describe, expect, it } from 'vitest';
import { DefaultToolRegistry } from '../src/index.js';
import { echoTool } from './support.js';

function names(
  registry: DefaultToolRegistry,
  ...gates: Parameters<DefaultToolRegistry['toDefinitions']>
): string[] {
  return registry.toDefinitions(...gates).map((definition) => definition.name);
}

function populated(): DefaultToolRegistry {
  const registry = new DefaultToolRegistry();
  registry.register(
    echoTool('read_file', { toolset: 'files', title: 'Read a file', annotations: { readOnly: true } }),
  );
  registry.register(echoTool('terminal', { toolset: 'shell' }));
  registry.register(echoTool('tool_search', { toolset: 'meta', alwaysInclude: true }));
  registry.register(echoTool('broken', { isAvailable: () => ({ available: false, reason: 'no backend' }) }));
  registry.register(echoTool('mcp__github__issues', { mcp: { server: 'github', originalName: 'issues' } }));
  registry.register(echoTool('board'), { pluginId: 'kanban' });
  return registry;
}

describe('toDefinitions', () => {
  it('shows every available tool with name, description, schema, title and annotations, and no callbacks', () => {
    const definitions = populated().toDefinitions();
    expect(definitions.map((definition) => definition.name)).toEqual([
      'read_file',
      'terminal',
      'tool_search',
      'mcp__github__issues',
      'board',
    ]);
    expect(definitions[0]).toEqual({
      name: 'read_file',
      description: 'Echoes text (read_file)',
      title: 'Read a file',
      annotations: { readOnly: true },
      parameters: expect.objectContaining({ type: 'object', required: ['text'] }),
    });
    expect(Object.keys(definitions[1] ?? {}).sort()).toEqual(['description', 'name', 'parameters']);
  });

  it('keeps built-ins outside the listed toolsets out, except alwaysInclude tools and those named directly', () => {
    const registry = populated();
    expect(names(registry, undefined, { toolsets: ['files'] })).toEqual([
      'read_file',
      'tool_search',
      'mcp__github__issues',
      'board',
    ]);
    expect(names(registry, undefined, { toolsets: ['terminal'] })).toEqual([
      'terminal',
      'tool_search',
      'mcp__github__issues',
      'board',
    ]);
    expect(names(registry, undefined, { toolsets: [] })).toEqual([
      'tool_search',
      'mcp__github__issues',
      'board',
    ]);
  });

  it('limits built-ins to a non-empty allowlist and gates MCP and plugin tools by server and plugin', () => {
    const registry = populated();
    expect(names(registry, ['terminal'])).toEqual([
      'terminal',
      'tool_search',
      'mcp__github__issues',
      'board',
    ]);
    expect(names(registry, [], { allowedMcpServers: [], allowedPlugins: ['kanban'] })).toEqual([
      'read_file',
      'terminal',
      'tool_search',
      'board',
    ]);
    expect(names(registry, undefined, { allowedMcpServers: ['github'], allowedPlugins: [] })).toEqual([
      'read_file',
      'terminal',
      'tool_search',
      'mcp__github__issues',
    ]);
  });

  it('leaves out a tool whose availability check throws instead of failing the whole list', () => {
    const registry = populated();
    registry.register(
      echoTool('flaky', {
        isAvailable: () => {
          throw new Error('probe crashed');
        },
      }),
    );
    expect(names(registry)).not.toContain('flaky');
    expect(names(registry)).toContain('read_file');
  });

  it('returns the same schema object that was derived at registration', () => {
    const registry = populated();
    expect(registry.toDefinitions()[0]?.parameters).toBe(registry.get('read_file')?.parameters);
    expect(Object.isFrozen(registry.get('read_file')?.parameters)).toBe(true);
  });
});
