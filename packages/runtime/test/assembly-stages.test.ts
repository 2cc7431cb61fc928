import { isQuiverError, ok } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { applyAgentContext } from '../src/assembly/agent-context.js';
import { collectCandidates } from '../src/assembly/candidates.js';
import { applyDenyRules } from '../src/assembly/deny-rules.js';
import { applyEnabledFilter } from '../src/assembly/enabled.js';
import { applyModelProfile } from '../src/assembly/model-profile-filter.js';
import { orderTools } from '../src/assembly/order.js';
import { applyOverrides } from '../src/assembly/overrides.js';
import { applySessionFilter } from '../src/assembly/session-filter.js';
import type { PoolTool } from '../src/contracts.js';
import { resolveModelProfile } from '../src/profiles/model-profiles.js';
import {
  builtInTool,
  externalTool,
  makePolicy,
  mcpTool,
  names,
  newRegistry,
  registerStandardTools,
} from './assembly-helpers.js';

function standardCandidates(extra: { mcp?: boolean } = {}): PoolTool[] {
  const registry = newRegistry();
  registerStandardTools(registry);
  if (extra.mcp)
    registry.registerAll([
      mcpTool('github', 'create_issue'),
      mcpTool('github', 'list_issues'),
      mcpTool('slack', 'post_message'),
    ]);
  const policy = makePolicy({ mcpServers: extra.mcp ? { github: {}, slack: {} } : {} });
  return collectCandidates(registry.list(), policy).kept;
}

describe('candidates', () => {
  it('keeps built-ins of enabled plugins and host tools, and says which plugin is off for the rest', () => {
    const registry = newRegistry();
    registry.register(builtInTool('read_file'), { pluginId: 'code' });
    registry.register(builtInTool('kanban_add'), { pluginId: 'kanban' });
    registry.register(builtInTool('host_status'));
    const result = collectCandidates(registry.list(), makePolicy({ plugins: ['code'] }));
    expect(names(result.kept).sort()).toEqual(['host_status', 'read_file']);
    expect(result.removed).toEqual([
      {
        name: 'kanban_add',
        reason: {
          stage: 'candidates',
          rule: 'plugins: kanban',
          reason: 'plugin "kanban" is not enabled in the personality',
        },
      },
    ]);
  });

  it('keeps MCP tools of enabled servers only, filtered by include and exclude globs on the original names', () => {
    const registry = newRegistry();
    registry.registerAll([
      mcpTool('github', 'create_issue'),
      mcpTool('github', 'delete_repository'),
      mcpTool('github', 'list_issues'),
      mcpTool('gitlab', 'create_issue'),
      mcpTool('slack', 'post_message'),
    ]);
    const policy = makePolicy({
      mcpServers: { github: { excludeTools: ['delete_*'] }, slack: { includeTools: ['list_*'] } },
    });
    const result = collectCandidates(registry.list(), policy);
    expect(names(result.kept)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    const reasons = Object.fromEntries(result.removed.map((entry) => [entry.name, entry.reason.rule]));
    expect(reasons).toEqual({
      mcp__github__delete_repository: 'mcpServers.github.excludeTools: delete_*',
      mcp__gitlab__create_issue: 'mcpServers.gitlab',
      mcp__slack__post_message: 'mcpServers.slack.includeTools',
    });
  });

  it('keeps the earliest of duplicate external tools and rejects schemas that are not object schemas', async () => {
    const first = externalTool('lookup', { execute: () => ok('first') });
    const second = externalTool('lookup', { execute: () => ok('second') });
    const listSchema = externalTool('bad_schema', {
      parameters: { type: 'array', items: { type: 'string' } },
    });
    const result = collectCandidates([], makePolicy(), [first, second, listSchema]);
    expect(names(result.kept)).toEqual(['lookup']);
    const kept = result.kept[0] as PoolTool;
    const outcome = await kept.tool.execute({ text: 'x' }, {} as never);
    expect(outcome).toEqual(ok('first'));
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'external_duplicate',
      'external_schema_not_object',
    ]);
  });

  it('checks an external tool’s arguments against its JSON Schema’s required keys and basic types', () => {
    const definition = externalTool('search_notes', {
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['query'],
      },
    });
    const [tool] = collectCandidates([], makePolicy(), [definition]).kept;
    const input = (tool as PoolTool).tool.input;
    expect(input.safeParse({ query: 'q', limit: 3, tags: ['a'], extra: true }).success).toBe(true);
    expect(input.safeParse({ limit: 3 }).success).toBe(false);
    expect(input.safeParse({ query: 'q', limit: 1.5 }).success).toBe(false);
    expect(input.safeParse({ query: 'q', tags: [1] }).success).toBe(false);
  });
});

describe('overrides', () => {
  it('fails naming both tools when an external tool shadows a built-in without saying so', () => {
    const registry = newRegistry();
    registry.register(builtInTool('read_file'), { pluginId: 'code' });
    const candidates = collectCandidates(registry.list(), makePolicy(), [externalTool('read_file')]).kept;
    let thrown: unknown;
    try {
      applyOverrides(candidates, new Set());
    } catch (error) {
      thrown = error;
    }
    expect(isQuiverError(thrown) && thrown.code).toBe('assembly_failed');
    expect((thrown as Error).message).toContain('External tool "read_file"');
    expect((thrown as Error).message).toContain('plugin "code"');
  });

  it('replaces the built-in callback in the built-in position when the override is explicit', async () => {
    const registry = newRegistry();
    registry.registerAll([builtInTool('read_file'), builtInTool('terminal')], { pluginId: 'code' });
    const override = externalTool('read_file', {
      overridesBuiltInTool: true,
      execute: () => ok('from the client'),
    });
    const candidates = collectCandidates(registry.list(), makePolicy(), [override]).kept;
    const result = applyOverrides(candidates, new Set(['read_file']));
    expect(result.kept.map((tool) => `${tool.name}:${tool.source}`)).toEqual([
      'read_file:builtin',
      'terminal:builtin',
    ]);
    expect(await (result.kept[0] as PoolTool).tool.execute({ text: 'a' }, {} as never)).toEqual(
      ok('from the client'),
    );
  });
});

describe('deny rules', () => {
  it('removes tools named by blanket rules, whole MCP servers and globs, and leaves rules with a specifier to execution', () => {
    const candidates = standardCandidates({ mcp: true });
    const result = applyDenyRules(candidates, [
      'terminal(rm:*)',
      'write_file',
      'mcp__github',
      'task_*',
      'Read',
    ]);
    const removed = Object.fromEntries(result.removed.map((entry) => [entry.name, entry.reason.rule]));
    expect(removed).toEqual({
      read_file: 'Read',
      write_file: 'write_file',
      task_create: 'task_*',
      task_stop: 'task_*',
      mcp__github__create_issue: 'mcp__github',
      mcp__github__list_issues: 'mcp__github',
    });
    expect(names(result.kept)).toContain('terminal');
    expect(names(result.kept)).toContain('mcp__slack__post_message');
  });
});

describe('enabled and available', () => {
  it('drops tools that report themselves disabled or unavailable, with their reason', () => {
    const tools = collectCandidates(
      [
        { tool: builtInTool('web_fetch', { isEnabled: () => false }), parameters: {} },
        {
          tool: builtInTool('browser', {
            isAvailable: () => ({ available: false, reason: 'no Chrome found' }),
          }),
          parameters: {},
        },
        {
          tool: builtInTool('flaky', {
            isAvailable: () => {
              throw new Error('probe crashed');
            },
          }),
          parameters: {},
        },
        { tool: builtInTool('grep', { isAvailable: () => true }), parameters: {} },
      ],
      makePolicy(),
    ).kept;
    const result = applyEnabledFilter(tools);
    expect(names(result.kept)).toEqual(['grep']);
    expect(result.removed.map((entry) => entry.reason.reason)).toEqual([
      'the tool reports itself disabled',
      'unavailable: no Chrome found',
      'its availability check threw: probe crashed',
    ]);
  });

  it('keeps only the shell, read and edit tools in simple mode', () => {
    const result = applyEnabledFilter(standardCandidates({ mcp: true }), { simpleMode: true });
    expect(names(result.kept).sort()).toEqual([
      'apply_patch',
      'edit_file',
      'multi_edit',
      'read_file',
      'terminal',
      'write_file',
    ]);
    expect(result.removed.find((entry) => entry.name === 'grep_search')?.reason.rule).toBe(
      'simpleMode: true',
    );
  });
});

describe('session allow and exclude', () => {
  it('lets the allowlist win over the exclude list and reports names that match no tool', () => {
    const candidates = standardCandidates();
    const result = applySessionFilter(candidates, {
      availableTools: ['read_file', 'Bash', 'Grep', 'nonexistent_tool'],
      excludedTools: ['grep_search', 'also_missing'],
      knownTools: candidates.map((tool) => ({ name: tool.name, aliases: tool.tool.aliases })),
    });
    expect(names(result.kept).sort()).toEqual(['grep_search', 'read_file', 'terminal']);
    expect(result.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'availableTools names "nonexistent_tool", which matches no tool, alias, plugin or configured MCP server.',
      'excludedTools names "also_missing", which matches no tool, alias, plugin or configured MCP server.',
    ]);
    expect(result.diagnostics.every((diagnostic) => diagnostic.level === 'warning')).toBe(true);
  });

  it('removes excluded tools when there is no allowlist', () => {
    const candidates = standardCandidates();
    const result = applySessionFilter(candidates, {
      excludedTools: ['Bash', 'multi_*'],
      knownTools: candidates,
    });
    expect(names(result.kept)).not.toContain('terminal');
    expect(names(result.kept)).not.toContain('multi_edit');
    expect(result.removed.find((entry) => entry.name === 'terminal')?.reason.rule).toBe(
      'excludedTools: Bash',
    );
  });

  it('gates built-ins by the personality toolset, except tools that always come along', () => {
    const registry = newRegistry();
    registry.registerAll(
      [
        builtInTool('read_file'),
        builtInTool('grep', { toolset: 'search' }),
        builtInTool('todo', { alwaysInclude: true }),
      ],
      { pluginId: 'code' },
    );
    registry.register(mcpTool('github', 'list_issues'));
    const candidates = collectCandidates(registry.list(), makePolicy({ mcpServers: { github: {} } })).kept;
    const result = applySessionFilter(candidates, { toolset: ['search'], knownTools: candidates });
    expect(names(result.kept)).toEqual(['grep', 'todo', 'mcp__github__list_issues']);
  });
});

describe('agent context', () => {
  const candidates = () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    registry.registerAll([builtInTool('web_fetch'), builtInTool('task_list')], { pluginId: 'code' });
    registry.registerAll([mcpTool('github', 'create_issue'), mcpTool('github', 'subscribe_pr_activity')]);
    return collectCandidates(registry.list(), makePolicy({ mcpServers: { github: {} } })).kept;
  };

  it('gives the main session every tool', () => {
    expect(applyAgentContext(candidates(), { agent: 'main' }).removed).toEqual([]);
  });

  it('takes agent-spawning and user-asking tools from sub-agents but lets MCP tools through', () => {
    const result = applyAgentContext(candidates(), { agent: 'subagent' });
    expect(names(result.removed).sort()).toEqual(['agent', 'ask_user', 'task_stop']);
    expect(names(result.kept)).toContain('mcp__github__create_issue');
  });

  it('limits async agents to their allowlist and teammates to it plus the task tools', () => {
    const asyncTools = names(applyAgentContext(candidates(), { agent: 'async' }).kept);
    expect(asyncTools).toContain('read_file');
    expect(asyncTools).toContain('mcp__github__create_issue');
    expect(asyncTools).not.toContain('task_create');
    expect(asyncTools).not.toContain('send_message');
    const teammateTools = names(applyAgentContext(candidates(), { agent: 'teammate' }).kept);
    expect(teammateTools).toEqual(
      expect.arrayContaining(['task_create', 'task_list', 'send_message', 'read_file']),
    );
    expect(teammateTools).toContain('agent');
    expect(teammateTools).not.toContain('task_stop');
  });

  it('leaves a coordinator only its delegation tools and the MCP tools its suffixes name', () => {
    const result = applyAgentContext(candidates(), { agent: 'coordinator' });
    expect(names(result.kept).sort()).toEqual([
      'agent',
      'mcp__github__subscribe_pr_activity',
      'send_message',
      'task_stop',
    ]);
  });

  it('keeps a custom agent’s named tools plus tool_search, and most tools for "*"', () => {
    const withSearch = [...candidates(), { ...(candidates()[0] as PoolTool), name: 'tool_search' }];
    const named = applyAgentContext(withSearch, {
      agent: 'subagent',
      customAgent: { name: 'reviewer', policy: { tools: ['read_file', 'Grep', 'mcp__github'] } },
    });
    expect(names(named.kept).sort()).toEqual([
      'grep_search',
      'mcp__github__create_issue',
      'mcp__github__subscribe_pr_activity',
      'read_file',
      'tool_search',
    ]);
    const everything = applyAgentContext(candidates(), {
      agent: 'main',
      customAgent: { name: 'builder', policy: { tools: ['*'], disallowedTools: ['terminal'] } },
    });
    expect(names(everything.removed).sort()).toEqual([
      'agent',
      'ask_user',
      'task_stop',
      'team_create',
      'terminal',
    ]);
  });

  it('hides defaultAgentExcludedTools from the default agent only, and not when an allowlist is given', () => {
    const main = applyAgentContext(candidates(), { agent: 'main', defaultAgentExcludedTools: ['Grep'] });
    expect(main.removed.find((entry) => entry.name === 'grep_search')?.reason.rule).toBe(
      'defaultAgentExcludedTools: Grep',
    );
    const allowlisted = applyAgentContext(candidates(), {
      agent: 'main',
      defaultAgentExcludedTools: ['Grep'],
      hasAllowlist: true,
    });
    expect(names(allowlisted.kept)).toContain('grep_search');
    const custom = applyAgentContext(candidates(), {
      agent: 'main',
      customAgent: { name: 'searcher', policy: { tools: ['Grep'] } },
      defaultAgentExcludedTools: ['Grep'],
    });
    expect(names(custom.kept)).toEqual(['grep_search']);
    const sub = applyAgentContext(candidates(), { agent: 'subagent', defaultAgentExcludedTools: ['Grep'] });
    expect(names(sub.kept)).toContain('grep_search');
  });
});

describe('order', () => {
  it('puts sorted built-ins first, then sorted MCP tools, then external tools in client order', () => {
    const registry = newRegistry();
    registry.registerAll([mcpTool('zeta', 'b'), mcpTool('alpha', 'a')]);
    registry.registerAll([builtInTool('write_file'), builtInTool('apply_patch')], { pluginId: 'code' });
    const candidates = collectCandidates(
      registry.list(),
      makePolicy({ mcpServers: { zeta: {}, alpha: {} } }),
      [externalTool('zz_client'), externalTool('aa_client')],
    ).kept;
    expect(names(orderTools(candidates).kept)).toEqual([
      'apply_patch',
      'write_file',
      'mcp__alpha__a',
      'mcp__zeta__b',
      'zz_client',
      'aa_client',
    ]);
  });
});

describe('model profile', () => {
  it('shows apply_patch to GPT models and edit_file to Claude, removing the other edit style entirely', () => {
    const gpt = applyModelProfile(standardCandidates(), resolveModelProfile('gpt-5'));
    expect(names(gpt.kept)).toContain('apply_patch');
    expect(names(gpt.removed).sort()).toEqual(['edit_file', 'multi_edit']);
    expect(gpt.removed[0]?.reason).toMatchObject({
      stage: 'model_profile',
      rule: 'modelProfiles.gpt.editStyle: apply_patch',
    });
    const claude = applyModelProfile(standardCandidates(), resolveModelProfile('claude-sonnet-4-5'));
    expect(names(claude.removed)).toEqual(['apply_patch']);
  });
});
