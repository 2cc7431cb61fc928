import type { ToolDefinitionLite } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { assembleToolPool } from '../src/assembly/assemble-tool-pool.js';
import { resolveProviderName } from '../src/providers/provider-names.js';
import { renderDefinitions, renderToolPool } from '../src/providers/render-definitions.js';
import { resolveToolName } from '../src/providers/resolve-tool-name.js';
import {
  builtInTool,
  loadCatalogTools,
  makePolicy,
  mcpTool,
  names,
  newRegistry,
  registerCatalog,
  registerStandardTools,
} from './assembly-helpers.js';

const strictSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
        additionalProperties: false,
      },
    },
  },
  required: ['path', 'lines'],
  additionalProperties: false,
};

function definition(
  name: string,
  parameters: Record<string, unknown> = strictSchema,
  extra: Partial<ToolDefinitionLite> = {},
): ToolDefinitionLite {
  return { name, description: `${name} does things.`, parameters, ...extra };
}

function catalogPool(model: string) {
  const registry = newRegistry();
  registerStandardTools(registry);
  const servers = registerCatalog(registry, loadCatalogTools());
  return assembleToolPool({
    registered: registry.list(),
    policy: makePolicy({
      mcpServers: Object.fromEntries(servers.map((server) => [server, {}])),
      deferLoading: { enabled: 'auto' },
    }),
    options: { model },
  });
}

describe('provider formats', () => {
  it('marks the end of the built-in prefix as Anthropic’s cache breakpoint and flags deferred tools', () => {
    const pool = catalogPool('claude-sonnet-4-5');
    const rendered = renderToolPool(pool, 'anthropic');
    const breakpoints = rendered.tools.flatMap((tool, index) => (tool.cache_control ? [index] : []));
    expect(breakpoints).toEqual([(pool.stablePrefixLength ?? 0) - 1]);
    expect(rendered.tools[breakpoints[0] as number]?.name).toBe('write_file');
    expect(rendered.tools.filter((tool) => tool.defer_loading).length).toBeGreaterThan(550);
    expect(rendered.tools[0]).toMatchObject({
      name: 'agent',
      description: expect.any(String),
      input_schema: { type: 'object' },
    });
  });

  it('sends OpenAI tools strict only when every property is required and extra properties are refused', () => {
    const rendered = renderDefinitions(
      [
        definition('strict_tool'),
        definition('optional_field', {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: false,
        }),
        definition('open_object', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }),
        definition('uses_one_of', {
          type: 'object',
          properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
          required: ['a'],
          additionalProperties: false,
        }),
      ],
      'openai',
    );
    expect(rendered.tools.map((tool) => [tool.function.name, tool.function.strict])).toEqual([
      ['strict_tool', true],
      ['optional_field', false],
      ['open_object', false],
      ['uses_one_of', false],
    ]);
    expect(rendered.tools[0]).toEqual({
      type: 'function',
      function: {
        name: 'strict_tool',
        description: 'strict_tool does things.',
        parameters: strictSchema,
        strict: true,
      },
    });
  });

  it('omits deferred tools for providers without deferred loading unless asked to include them', () => {
    const tools = [definition('shown'), definition('hidden', strictSchema, { deferLoading: true })];
    expect(renderDefinitions(tools, 'openai').tools.map((tool) => tool.function.name)).toEqual(['shown']);
    expect(renderDefinitions(tools, 'mcp', { includeDeferred: true }).tools.map((tool) => tool.name)).toEqual(
      ['shown', 'hidden'],
    );
  });

  it('rewrites schemas into the keywords Gemini accepts', () => {
    const rendered = renderDefinitions(
      [
        definition('gemini_tool', {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            mode: { const: 'fast' },
            note: { type: ['string', 'null'], description: 'optional note' },
            item: { $ref: '#/$defs/item' },
            level: { enum: [1, 2] },
          },
          required: ['mode', 'missing'],
          additionalProperties: false,
          $defs: {
            item: {
              type: 'object',
              properties: { id: { type: 'string', format: 'uuid' } },
              additionalProperties: false,
            },
          },
        }),
        definition('no_arguments', { type: 'object', properties: {} }),
      ],
      'gemini',
    );
    expect(rendered.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'gemini_tool',
            description: 'gemini_tool does things.',
            parameters: {
              type: 'object',
              properties: {
                mode: { enum: ['fast'], type: 'string' },
                note: { type: 'string', nullable: true, description: 'optional note' },
                item: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
                level: { enum: ['1', '2'], type: 'string' },
              },
              required: ['mode'],
            },
          },
          { name: 'no_arguments', description: 'no_arguments does things.' },
        ],
      },
    ]);
  });

  it('renders the MCP tools/list shape with title and hint annotations', () => {
    const rendered = renderDefinitions(
      [
        definition('read_file', strictSchema, {
          title: 'Read a file',
          annotations: { readOnly: true, openWorld: false },
        }),
      ],
      'mcp',
    );
    expect(rendered.tools).toEqual([
      {
        name: 'read_file',
        title: 'Read a file',
        description: 'read_file does things.',
        inputSchema: strictSchema,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ]);
  });

  it('shortens names a provider would refuse with a stable hash and maps them back for dispatch', () => {
    const long = `mcp__server__${'very_long_tool_name_'.repeat(4)}`;
    const dotted = 'namespace.tool';
    const first = renderDefinitions([definition(long), definition(dotted), definition('9lives')], 'gemini', {
      toolNameLimit: 40,
    });
    const second = renderDefinitions([definition(long)], 'gemini', { toolNameLimit: 40 });
    const sent = first.tools[0]?.functionDeclarations.map((tool) => tool.name) ?? [];
    expect(sent[0]).toHaveLength(40);
    expect(sent[0]).toBe(second.tools[0]?.functionDeclarations[0]?.name);
    expect(sent[1]).toBe('namespace.tool');
    expect(sent[2]).toMatch(/^_9lives_[0-9a-f]{8}$/);
    expect(resolveProviderName(sent[0] as string, first.nameMap)).toBe(long);
    expect(resolveProviderName(sent[2] as string, first.nameMap)).toBe('9lives');
    expect(resolveProviderName('read_file', first.nameMap)).toBe('read_file');
    const openai = renderDefinitions([definition(dotted)], 'openai');
    expect(openai.tools[0]?.function.name).toMatch(/^namespace_tool_[0-9a-f]{8}$/);
  });

  it('sends only valid names for every tool of the real catalogs in every format', () => {
    const pool = catalogPool('gpt-5');
    const patterns = {
      anthropic: /^[a-zA-Z0-9_-]{1,64}$/,
      openai: /^[a-zA-Z0-9_-]{1,64}$/,
      mcp: /^[a-zA-Z0-9_.-]{1,128}$/,
    } as const;
    for (const format of ['anthropic', 'openai', 'mcp'] as const) {
      const rendered = renderToolPool(pool, format, { includeDeferred: true });
      const sent = rendered.tools.map((tool) => ('function' in tool ? tool.function.name : tool.name));
      expect(sent).toHaveLength(pool.definitions.length);
      expect(sent.every((name) => patterns[format].test(name))).toBe(true);
    }
    const gemini = renderToolPool(pool, 'gemini', { includeDeferred: true });
    expect(
      gemini.tools[0]?.functionDeclarations.every((tool) =>
        /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(tool.name),
      ),
    ).toBe(true);
  });
});

describe('tool name compatibility', () => {
  it('resolves names prompts use for other agents to the tools in this pool', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    registry.register(builtInTool('web_fetch', { aliases: ['WebFetch'] }), { pluginId: 'code' });
    registry.register(mcpTool('github', 'list_issues'));
    const pool = assembleToolPool({
      registered: registry.list(),
      policy: makePolicy({ mcpServers: { github: {} } }),
      options: { model: 'gpt-5' },
    });
    expect(resolveToolName('Bash', pool)).toBe('terminal');
    expect(resolveToolName('Read', pool)).toBe('read_file');
    expect(resolveToolName('Edit', pool)).toBe('apply_patch');
    expect(resolveToolName('WebFetch', pool)).toBe('web_fetch');
    expect(resolveToolName('mcp__github__list_issues', pool)).toBe('mcp__github__list_issues');
    expect(resolveToolName('NotebookEdit', pool)).toBeUndefined();
    const claude = assembleToolPool({
      registered: registry.list(),
      policy: makePolicy(),
      options: { model: 'claude-opus-4-1' },
    });
    expect(resolveToolName('Edit', claude)).toBe('edit_file');
    expect(resolveToolName('MultiEdit', claude)).toBe('multi_edit');
    expect(names(claude.definitions)).not.toContain('apply_patch');
  });
});
