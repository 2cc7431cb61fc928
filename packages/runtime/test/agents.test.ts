import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { isQuiverError } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { AGENT_TOOL_POLICIES, ALL_AGENT_DISALLOWED_TOOLS } from '../src/agents/agent-policies.js';
import { currentTeammate, runAsTeammate } from '../src/agents/teammate-context.js';
import { assembleToolPool } from '../src/assembly/assemble-tool-pool.js';
import {
  builtInTool,
  externalTool,
  makePolicy,
  mcpTool,
  names,
  newRegistry,
  registerStandardTools,
} from './assembly-helpers.js';

describe('agent contexts', () => {
  it('knows it runs as a teammate across awaits and timers, and only inside runAsTeammate', async () => {
    expect(currentTeammate()).toBeUndefined();
    const seen = await runAsTeammate(
      async () => {
        await nextMacrotask();
        return new Promise((resolve) => setTimeout(() => resolve(currentTeammate()), 1));
      },
      { name: 'tester' },
    );
    expect(seen).toEqual({ name: 'tester' });
    expect(currentTeammate()).toBeUndefined();
  });

  it('takes the disallowed tools from every agent kind but the main session, even when an SDK client supplies them', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    for (const kind of ['subagent', 'async', 'teammate'] as const) {
      const pool = assembleToolPool({
        registered: registry.list(),
        policy: makePolicy(),
        options: { externalTools: [externalTool('enter_plan_mode')] },
        agent: kind,
      });
      // A teammate keeps the agent tool (its sub-agents get the sub-agent set); nothing else on the list.
      const kept = kind === 'teammate' ? ['Agent', 'agent'] : [];
      for (const name of ALL_AGENT_DISALLOWED_TOOLS)
        expect(pool.executables.has(name)).toBe(kept.includes(name) && name === 'agent');
      expect(AGENT_TOOL_POLICIES[kind].deny).toEqual(
        ALL_AGENT_DISALLOWED_TOOLS.filter((name) => !kept.includes(name)),
      );
    }
    const main = assembleToolPool({ registered: registry.list(), policy: makePolicy(), agent: 'main' });
    expect(names(main.definitions)).toEqual(expect.arrayContaining(['agent', 'ask_user']));
  });

  it('selects a custom agent from the personality and fails with the known names for an unknown one', () => {
    const registry = newRegistry();
    registerStandardTools(registry);
    registry.register(builtInTool('web_fetch'), { pluginId: 'code' });
    registry.register(mcpTool('docs', 'search'));
    const policy = makePolicy({
      mcpServers: { docs: {} },
      agents: { reviewer: { tools: ['Read', 'Grep', 'mcp__docs__*'] } },
    });
    const pool = assembleToolPool({
      registered: registry.list(),
      policy,
      options: { customAgent: 'reviewer' },
      agent: 'subagent',
    });
    expect(names(pool.definitions)).toEqual(['grep_search', 'read_file', 'mcp__docs__search']);
    expect(pool.removed.get('web_fetch')).toMatchObject({
      stage: 'agent_context',
      rule: 'agents.reviewer.tools',
    });
    let thrown: unknown;
    try {
      assembleToolPool({ registered: registry.list(), policy, options: { customAgent: 'writer' } });
    } catch (error) {
      thrown = error;
    }
    expect(isQuiverError(thrown) && thrown.code).toBe('assembly_failed');
    expect(isQuiverError(thrown) && thrown.fix).toContain('reviewer');
  });
});
