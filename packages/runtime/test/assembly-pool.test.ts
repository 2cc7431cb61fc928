import { isQuiverError, type ToolDefinitionLite } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { assembleToolPool } from '../src/assembly/assemble-tool-pool.js';
import { estimateTokens } from '../src/assembly/definitions.js';
import { explainTool } from '../src/assembly/explain-tool.js';
import type { PoolTool, SessionPolicy } from '../src/contracts.js';
import {
  builtInTool,
  externalTool,
  loadCatalogTools,
  makePolicy,
  mcpTool,
  names,
  newRegistry,
  registerCatalog,
  registerStandardTools,
} from './assembly-helpers.js';

function catalogSetup(policyOverrides: Partial<SessionPolicy> = {}) {
  const registry = newRegistry();
  registerStandardTools(registry);
  const servers = registerCatalog(registry, loadCatalogTools());
  const policy = makePolicy({
    mcpServers: Object.fromEntries(servers.map((server) => [server, {}])),
    ...policyOverrides,
  });
  return { registry, policy };
}

describe('assembleToolPool', () => {
  it('never changes the built-in prefix when MCP tools come and go', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    const policy = makePolicy({ mcpServers: { github: {}, slack: {} } });
    const before = assembleToolPool({ registered: registry.list(), policy });
    const unregister = registry.registerAll([
      mcpTool('github', 'aaa_first'),
      mcpTool('slack', 'post_message'),
    ]);
    const during = assembleToolPool({ registered: registry.list(), policy });
    unregister();
    const after = assembleToolPool({ registered: registry.list(), policy });
    const prefix = (pool: typeof before) => pool.definitions.slice(0, pool.stablePrefixLength);
    expect(prefix(during)).toEqual(prefix(before));
    expect(during.stablePrefixLength).toBe(before.stablePrefixLength);
    expect(names(during.definitions).slice(-2)).toEqual([
      'mcp__github__aaa_first',
      'mcp__slack__post_message',
    ]);
    expect(after.signature).toBe(before.signature);
    expect(during.signature).not.toBe(before.signature);
  });

  it('gives identical inputs the same signature and keeps callbacks out of the definitions', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    const first = assembleToolPool({ registered: registry.list(), policy: makePolicy() });
    const second = assembleToolPool({ registered: registry.list(), policy: makePolicy() });
    expect(second.signature).toBe(first.signature);
    expect(first.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(JSON.stringify(first.definitions))).toEqual(first.definitions);
    for (const definition of first.definitions)
      expect(Object.values(definition).some((value) => typeof value === 'function')).toBe(false);
  });

  it('fails with a fix when an external tool shadows a built-in without overridesBuiltInTool', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    let thrown: unknown;
    try {
      assembleToolPool({
        registered: registry.list(),
        policy: makePolicy(),
        options: { externalTools: [externalTool('terminal')] },
      });
    } catch (error) {
      thrown = error;
    }
    expect(isQuiverError(thrown) && thrown.fix).toContain('overridesBuiltInTool');
  });

  it('records the stage and rule that removed each tool, and explains it in a sentence', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    registry.register(builtInTool('kanban_add'), { pluginId: 'kanban' });
    const pool = assembleToolPool({
      registered: registry.list(),
      policy: makePolicy({ permissions: { deny: ['terminal'] } }),
      options: { model: 'gpt-5', excludedTools: ['grep_search'] },
      agent: 'subagent',
    });
    expect(pool.removed.get('terminal')).toEqual({
      stage: 'deny_rules',
      rule: 'terminal',
      reason: 'denied by the permission rule "terminal"',
    });
    expect(pool.removed.get('grep_search')?.stage).toBe('session_filter');
    expect(pool.removed.get('agent')?.stage).toBe('agent_context');
    expect(pool.removed.get('edit_file')?.stage).toBe('model_profile');
    expect(explainTool(pool, 'terminal')).toBe(
      '"terminal" was removed at the deny rules stage by "terminal": denied by the permission rule "terminal".',
    );
    expect(explainTool(pool, 'kanban_add')).toContain('plugin "kanban" is not enabled');
    expect(explainTool(pool, 'Read')).toBe(
      '"Read" refers to "read_file". "read_file" is available: a built-in tool of plugin "code".',
    );
    expect(explainTool(pool, 'no_such_tool')).toContain('is not a known tool');
  });

  it('defers the catalog’s MCP tools behind tool_search for Claude and keeps them executable', () => {
    const { registry, policy } = catalogSetup({ deferLoading: { enabled: 'auto' } });
    const pool = assembleToolPool({
      registered: registry.list(),
      policy,
      options: { model: 'claude-opus-4-1' },
    });
    const mcpDefinitions = pool.definitions.filter((definition) => definition.name.startsWith('mcp__'));
    expect(mcpDefinitions.length).toBeGreaterThan(550);
    expect(mcpDefinitions.every((definition) => definition.deferLoading === true)).toBe(true);
    expect(
      pool.definitions
        .filter((definition) => !definition.name.startsWith('mcp__'))
        .every((definition) => !definition.deferLoading),
    ).toBe(true);
    expect(pool.executables.get('tool_search')).toBeDefined();
    expect(names(pool.definitions).indexOf('tool_search')).toBe(pool.stablePrefixLength);
    for (const definition of mcpDefinitions) expect(pool.executables.has(definition.name)).toBe(true);
    const shown = estimateTokens(pool.definitions.filter((definition) => !definition.deferLoading));
    const all = estimateTokens(pool.definitions);
    expect(all).toBeGreaterThan(150_000);
    expect(shown).toBeLessThan(all / 20);
  });

  it('defers by estimated tokens for every model, not only for providers with native deferred loading', () => {
    const auto = catalogSetup({ deferLoading: { enabled: 'auto' } });
    for (const model of ['gpt-5', 'gemini-2.5-pro', undefined]) {
      const pool = assembleToolPool({
        registered: auto.registry.list(),
        policy: auto.policy,
        options: model === undefined ? {} : { model },
      });
      const listed = pool.definitions.filter((definition) => !definition.deferLoading);
      expect(listed.every((definition) => !definition.name.startsWith('mcp__'))).toBe(true);
      expect(pool.executables.has('tool_search')).toBe(true);
      expect(estimateTokens(listed)).toBeLessThanOrEqual(12_000);
    }
    const roomy = catalogSetup({ deferLoading: { enabled: 'auto', maxTokens: 1_000_000 } });
    const underThreshold = assembleToolPool({ registered: roomy.registry.list(), policy: roomy.policy });
    expect(underThreshold.definitions.some((definition) => definition.deferLoading)).toBe(false);
    expect(underThreshold.executables.has('tool_search')).toBe(false);
  });

  it("defers under 'auto' when the personality's maxTools is exceeded, whatever the tokens", () => {
    const counted = catalogSetup({ deferLoading: { enabled: 'auto', maxTools: 40, maxTokens: 1_000_000 } });
    const pool = assembleToolPool({ registered: counted.registry.list(), policy: counted.policy });
    expect(pool.definitions.some((definition) => definition.deferLoading)).toBe(true);
    expect(pool.diagnostics.map((diagnostic) => diagnostic.message).join('\n')).toMatch(/> maxTools 40/);
  });

  it('keeps tool_search for a client that lists tools once, even before any server tool is there', () => {
    const { policy, registry } = catalogSetup({ deferLoading: { enabled: 'auto' } });
    const builtIns = registry.list().filter((entry) => !entry.tool.name.startsWith('mcp__'));
    const early = assembleToolPool({ registered: builtIns, policy, options: { stableToolList: true } });
    expect(early.executables.has('tool_search')).toBe(true);
    expect(early.definitions.some((definition) => definition.deferLoading)).toBe(false);
    const inProcess = assembleToolPool({ registered: builtIns, policy });
    expect(inProcess.executables.has('tool_search')).toBe(false);
    const withoutServers = assembleToolPool({
      registered: builtIns,
      policy: { ...policy, mcpServers: {} },
      options: { stableToolList: true },
    });
    expect(withoutServers.executables.has('tool_search')).toBe(false);
  });

  it('does not defer when the personality turns deferred loading off, however large the pool', () => {
    const off = catalogSetup({ deferLoading: { enabled: false } });
    const pool = assembleToolPool({ registered: off.registry.list(), policy: off.policy });
    expect(pool.definitions.some((definition) => definition.deferLoading)).toBe(false);
    expect(pool.executables.has('tool_search')).toBe(false);
  });

  it('lets tool_search find deferred tools and shows what it found in full in the next pool', async () => {
    const { registry, policy } = catalogSetup({ deferLoading: { enabled: 'auto' } });
    const expanded = new Set<string>();
    const build = () =>
      assembleToolPool({
        registered: registry.list(),
        policy,
        options: { model: 'claude-sonnet-4-5' },
        expandedTools: expanded,
        onToolsFound: (found) => {
          for (const name of found) expanded.add(name);
        },
      });
    const pool = build();
    const search = (pool.executables.get('tool_search') as PoolTool).tool;
    const result = await search.execute({ query: 'create pull request github', limit: 3 }, {} as never);
    expect(result.ok).toBe(true);
    const found = (result.ok ? (result.structured as { tools: ToolDefinitionLite[] }).tools : []).map(
      (tool) => tool.name,
    );
    expect(found[0]).toBe('mcp__server-github__create_pull_request');
    const next = build();
    expect(next.definitions.find((definition) => definition.name === found[0])?.deferLoading).toBeUndefined();
    expect(
      next.definitions.find((definition) => definition.name === 'mcp__server-github__list_issues')
        ?.deferLoading,
    ).toBe(true);
    expect(next.signature).not.toBe(pool.signature);
  });

  it('lists found tools only while the list stays within maxTokens, the latest found first', () => {
    const { registry, policy } = catalogSetup({ deferLoading: { enabled: 'auto' } });
    const all = assembleToolPool({ registered: registry.list(), policy });
    const found = all.definitions
      .filter((definition) => definition.deferLoading)
      .map((definition) => definition.name);
    const pool = assembleToolPool({ registered: registry.list(), policy, expandedTools: new Set(found) });
    const listed = pool.definitions.filter((definition) => !definition.deferLoading);
    expect(estimateTokens(listed)).toBeLessThanOrEqual(12_000);
    const shown = listed
      .filter((definition) => definition.name.startsWith('mcp__'))
      .map((definition) => definition.name);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown).toContain(found.at(-1));
    expect(shown).not.toContain(found[0]);
    for (const name of found) expect(pool.executables.has(name)).toBe(true);
  });

  it('shows every tool in full when the rules deny tool_search, rather than hiding tools it could not find', () => {
    const { registry, policy } = catalogSetup({
      deferLoading: { enabled: true },
      permissions: { deny: ['tool_search'] },
    });
    const pool = assembleToolPool({ registered: registry.list(), policy });
    expect(pool.definitions.some((definition) => definition.deferLoading)).toBe(false);
    expect(pool.executables.has('tool_search')).toBe(false);
  });

  it('strips deferred hints when asked, as child sessions do', () => {
    const { registry, policy } = catalogSetup({ deferLoading: { enabled: true } });
    const pool = assembleToolPool({ registered: registry.list(), policy, stripDeferred: true });
    expect(pool.definitions.some((definition) => definition.deferLoading)).toBe(false);
    expect(pool.executables.has('tool_search')).toBe(false);
  });

  it('never lets a denied tool reach a sub-agent, whatever the sub-agent asks for', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    registry.register(mcpTool('github', 'delete_repository'));
    const pool = assembleToolPool({
      registered: registry.list(),
      policy: makePolicy({ mcpServers: { github: {} } }),
      options: { availableTools: ['terminal', 'mcp__github__delete_repository', 'read_file'] },
      agent: 'subagent',
      parentDenies: ['terminal', 'mcp__github'],
    });
    expect(names(pool.definitions)).toEqual(['read_file']);
  });
});
