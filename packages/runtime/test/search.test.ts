import type { ToolDefinitionLite } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { toDefinition } from '../src/assembly/definitions.js';
import type { PoolTool } from '../src/contracts.js';
import { searchTools } from '../src/search/search-tools.js';
import { createToolSearchIndex, toolSearchIndexFor } from '../src/search/tool-search-index.js';
import { createToolSearchTool } from '../src/search/tool-search-tool.js';
import { loadCatalogTools, names } from './assembly-helpers.js';

function definition(name: string, description: string): ToolDefinitionLite {
  return { name, description, parameters: { type: 'object', properties: {} } };
}

const catalog = loadCatalogTools().map((tool): ToolDefinitionLite => {
  const pooled: PoolTool = {
    name: tool.name,
    source: 'mcp',
    tool,
    deferred: true,
    parameters: tool.parametersJsonSchema ?? {},
  };
  return toDefinition(pooled);
});

describe('tool search', () => {
  it('finds tools by inflected words, camelCase names and synonyms the tool never uses', () => {
    const tools = [
      definition('mcp__github__listPullRequests', 'Lists the pull requests of a repository.'),
      definition('mcp__files__delete_file', 'Deletes one file.'),
      definition('mcp__files__create_directory', 'Creates a directory.'),
      definition('mcp__board__create_issue', 'Opens an issue on the board.'),
    ];
    expect(names(searchTools('show my PRs', tools, 1))).toEqual(['mcp__github__listPullRequests']);
    expect(names(searchTools('remove a file', tools, 1))).toEqual(['mcp__files__delete_file']);
    expect(names(searchTools('make a new folder', tools, 1))).toEqual(['mcp__files__create_directory']);
    expect(names(searchTools('file a ticket', tools, 1))).toEqual(['mcp__board__create_issue']);
  });

  it('finds tools by their parameters and by the server that provides them', () => {
    const tools = [
      definition('mcp__slack__post', 'Sends text.'),
      {
        ...definition('mcp__chat__send', 'Sends text.'),
        parameters: {
          type: 'object',
          properties: { channel_id: { type: 'string', description: 'Channel' } },
        },
      },
    ];
    expect(names(searchTools('slack', tools, 1))).toEqual(['mcp__slack__post']);
    expect(names(searchTools('send to a channel', tools, 1))).toEqual(['mcp__chat__send']);
  });

  it('reads parameters given as alternatives or as references into the schema definitions', () => {
    const blocks = {
      ...definition('mcp__notes__append_children', 'Appends children.'),
      parameters: {
        type: 'object',
        properties: {
          children: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/block' }, { type: 'string' }] } },
        },
        $defs: {
          block: { oneOf: [{ $ref: '#/$defs/paragraph' }, { $ref: '#/$defs/self' }] },
          paragraph: {
            type: 'object',
            properties: { paragraph: { type: 'object' }, type: { enum: ['paragraph'] } },
          },
          // A definition that refers to itself is read once.
          self: { type: 'object', properties: { nested: { $ref: '#/$defs/self' } } },
        },
      },
    };
    const other = definition('mcp__notes__append_log', 'Appends a line of text to a log.');
    expect(names(searchTools('add a paragraph', [other, blocks], 1))).toEqual([
      'mcp__notes__append_children',
    ]);
    // A reference that leads nowhere is skipped, not an error.
    const broken = {
      ...blocks,
      parameters: { type: 'object', properties: { x: { $ref: '#/$defs/missing' } } },
    };
    expect(names(searchTools('append', [broken], 1))).toEqual(['mcp__notes__append_children']);
  });

  it('ranks a tool whose name matches above tools that only mention the words', () => {
    const tools = [
      definition(
        'send_email',
        'Send an email. Mentions nothing about issues or github, except that github issues are not emails.',
      ),
      definition('mcp__github__create_issue', 'Create a new issue in a repository.'),
      definition('mcp__gitlab__create_issue', 'Open an issue in a GitLab project.'),
    ];
    expect(names(searchTools('github issue', tools, 3))).toEqual([
      'mcp__github__create_issue',
      'send_email',
      'mcp__gitlab__create_issue',
    ]);
    expect(names(searchTools('github issue', tools, 1))).toEqual(['mcp__github__create_issue']);
  });

  it('finds the right tool among the 598 real MCP tools', () => {
    expect(searchTools('create pull request', catalog, 1)[0]?.name).toBe(
      'mcp__server-github__create_pull_request',
    );
    expect(searchTools('screenshot', catalog, 10).some((tool) => tool.name.includes('screenshot'))).toBe(
      true,
    );
    expect(names(searchTools('kubernetes pods logs', catalog, 2))).toEqual([
      'mcp__mcp-server-kubernetes__kubectl_logs',
      'mcp__mcp-server-kubernetes__exec_in_pod',
    ]);
  });

  it('matches words by their beginning when the query is a prefix', () => {
    const tools = [
      definition('list_repositories', 'List repositories.'),
      definition('read_file', 'Read a file.'),
    ];
    expect(names(searchTools('repo', tools, 5))).toEqual(['list_repositories']);
  });

  it('puts an exact tool name first', () => {
    const found = searchTools('mcp__server-memory__read_graph', catalog, 5);
    expect(found[0]?.name).toBe('mcp__server-memory__read_graph');
  });

  it('searches names and descriptions with a regular expression in /…/ or regex mode', () => {
    const regexResults = searchTools('/^mcp__server-slack__.*(post|reply)/', catalog, 10);
    expect(names(regexResults).sort()).toEqual([
      'mcp__server-slack__slack_post_message',
      'mcp__server-slack__slack_reply_to_thread',
    ]);
    expect(names(searchTools('slack_post', catalog, 10, 'regex'))).toEqual([
      'mcp__server-slack__slack_post_message',
    ]);
    expect(() => searchTools('/(unclosed/', catalog, 5)).toThrow(/not a valid regular expression/);
  });

  it('builds the index once per tool list and reuses it', () => {
    const tools = [definition('a_tool', 'first')];
    expect(toolSearchIndexFor(tools)).toBe(toolSearchIndexFor(tools));
    expect(toolSearchIndexFor([...tools])).not.toBe(toolSearchIndexFor(tools));
    expect(createToolSearchIndex([]).search('anything', 5)).toEqual([]);
  });

  it('answers from the new list when a reassembled pool only changed deferred flags', () => {
    const before = catalog.slice(0, 50);
    const after = before.map(({ deferLoading: _deferred, ...definition }) => definition);
    const first = searchTools('list pull requests', before, 3);
    const second = searchTools('list pull requests', after, 3);
    expect(first).toHaveLength(3);
    expect(names(second)).toEqual(names(first));
    expect(first.every((tool) => tool.deferLoading === true)).toBe(true);
    expect(second.every((tool) => after.includes(tool))).toBe(true);
  });

  it('returns full definitions from the tool, reports what it found and fails an invalid regex as data', async () => {
    const found: string[] = [];
    const tool = createToolSearchTool({ definitions: () => catalog, onFound: (list) => found.push(...list) });
    const result = await tool.execute({ query: 'slack channel history', limit: 2 }, {} as never);
    expect(result.ok).toBe(true);
    const tools = result.ok ? (result.structured as { tools: ToolDefinitionLite[] }).tools : [];
    expect(tools).toHaveLength(2);
    expect(tools[0]?.parameters).toMatchObject({ type: 'object' });
    expect(tools.every((entry) => entry.deferLoading === undefined)).toBe(true);
    expect(found).toEqual(names(tools));
    expect(
      await tool.execute({ query: '/[/', mode: undefined, limit: undefined }, {} as never),
    ).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(await tool.execute({ query: 'qqxyzzy' }, {} as never)).toMatchObject({
      ok: true,
      structured: { tools: [] },
    });
  });

  it('answers with each found tool once: name, description and parameters, in far fewer characters than its JSON', async () => {
    const tool = createToolSearchTool({ definitions: () => catalog });
    const result = await tool.execute({ query: 'create a pull request on github', limit: 5 }, {} as never);
    if (!result.ok) throw new Error(result.error);
    const tools = (result.structured as { tools: ToolDefinitionLite[] }).tools;
    const text = result.value;
    expect([...text.matchAll(/^(\S+) — /gm)].map((match) => match[1])).toEqual(names(tools));
    const github = tools.find((entry) => entry.name === 'mcp__server-github__create_pull_request');
    expect(github).toBeDefined();
    const schema = github?.parameters as { properties: Record<string, unknown>; required: string[] };
    const block = text.split(/\n(?=\S)/).find((part) => part.startsWith(`${github?.name} — `)) ?? '';
    for (const name of Object.keys(schema.properties)) {
      const optional = schema.required.includes(name) ? '' : '?';
      expect(block).toContain(`\n  ${name}${optional}: `);
    }
    expect(block).toContain('draft?: boolean');
    expect(text.length).toBeLessThan(JSON.stringify(tools, null, 2).length / 2);
  });

  it('spells enum values, arrays of objects and defaults of parameters in the answer', async () => {
    const tools: ToolDefinitionLite[] = [
      {
        name: 'mcp__review__post',
        description: 'Posts a review.',
        parameters: {
          type: 'object',
          properties: {
            event: { type: 'string', enum: ['APPROVE', 'COMMENT'], description: 'The review action' },
            comments: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, line: { type: 'number' } },
                required: ['path'],
              },
            },
            page: { type: 'number', default: 1, description: 'page' },
          },
          required: ['event'],
        },
      },
    ];
    const result = await createToolSearchTool({ definitions: () => tools }).execute(
      { query: 'review' },
      {} as never,
    );
    expect(result.ok && result.value).toBe(
      [
        'Found 1 tool; call one by its name (`?` marks an optional parameter):',
        'mcp__review__post — Posts a review.',
        '  event: "APPROVE" | "COMMENT" — The review action',
        '  comments?: { path: string, line?: number }[]',
        '  page?: number (default 1)',
      ].join('\n'),
    );
  });
});
