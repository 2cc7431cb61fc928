import { QuiverError } from '@quiver/types';
import {
  AGENT_TOOL_POLICIES,
  CUSTOM_AGENT_DISALLOWED_TOOLS,
  CUSTOM_AGENT_MANDATORY_TOOLS,
} from '../agents/agent-policies.js';
import type { CustomAgentPolicy, PoolTool, SessionAgentKind } from '../contracts.js';
import { matchesAnyNamePattern, matchesNamePattern } from './name-pattern.js';
import type { StageResult } from './stage-result.js';

export interface AgentContextOptions {
  agent: SessionAgentKind;
  /** Name and policy of the selected custom agent. */
  customAgent?: { name: string; policy: CustomAgentPolicy } | undefined;
  defaultAgentExcludedTools?: readonly string[] | undefined;
}

/**
 * Stage 6: the agent kind's policy from AGENT_TOOL_POLICIES, then the selected custom agent's
 * tool list, then defaultAgentExcludedTools for agents other than the main session. MCP tools
 * pass the kind's policy (a coordinator keeps only the MCP suffixes it names); a custom agent's
 * named list narrows them like any tool, and accepts `mcp__server__*` globs.
 */
export function applyAgentContext(tools: readonly PoolTool[], options: AgentContextOptions): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const policy = AGENT_TOOL_POLICIES[options.agent];
  const custom = options.customAgent;
  const namedTools =
    custom?.policy.tools && !custom.policy.tools.includes('*') ? custom.policy.tools : undefined;
  if (
    !custom &&
    !policy.allow &&
    !policy.mcpSuffixes &&
    policy.deny.length === 0 &&
    !policy.appliesDefaultAgentExcludes
  ) {
    result.kept = [...tools];
    return result;
  }
  for (const tool of tools) {
    const removal =
      kindRemoval(tool, options.agent) ??
      customRemoval(tool, custom, namedTools) ??
      defaultExclusion(tool, options, policy.appliesDefaultAgentExcludes);
    if (removal) result.removed.push({ name: tool.name, reason: { stage: 'agent_context', ...removal } });
    else result.kept.push(tool);
  }
  return result;
}

function kindRemoval(tool: PoolTool, agent: SessionAgentKind): { rule: string; reason: string } | undefined {
  const policy = AGENT_TOOL_POLICIES[agent];
  if (tool.source === 'mcp') {
    if (!policy.mcpSuffixes || policy.mcpSuffixes.some((suffix) => tool.name.endsWith(suffix)))
      return undefined;
    return {
      rule: `${policy.ruleName} (MCP suffixes)`,
      reason: `a ${agent} session keeps only MCP tools ending in ${policy.mcpSuffixes.join(', ')}`,
    };
  }
  if (policy.deny.includes(tool.name))
    return { rule: 'ALL_AGENT_DISALLOWED_TOOLS', reason: `no ${agent} agent may use "${tool.name}"` };
  if (policy.allow && !matchesAnyNamePattern(policy.allow, tool.name)) {
    return { rule: policy.ruleName, reason: `not among the tools a ${agent} agent may use` };
  }
  return undefined;
}

function customRemoval(
  tool: PoolTool,
  custom: AgentContextOptions['customAgent'],
  namedTools: readonly string[] | undefined,
): { rule: string; reason: string } | undefined {
  if (!custom) return undefined;
  const label = `agents.${custom.name}`;
  if (tool.source !== 'mcp' && CUSTOM_AGENT_DISALLOWED_TOOLS.includes(tool.name)) {
    return { rule: 'CUSTOM_AGENT_DISALLOWED_TOOLS', reason: `custom agents may not use "${tool.name}"` };
  }
  const disallowed = custom.policy.disallowedTools
    ? matchesAnyNamePattern(custom.policy.disallowedTools, tool.name)
    : undefined;
  if (disallowed !== undefined)
    return {
      rule: `${label}.disallowedTools: ${disallowed}`,
      reason: `custom agent "${custom.name}" disallows it`,
    };
  if (
    namedTools &&
    !CUSTOM_AGENT_MANDATORY_TOOLS.includes(tool.name) &&
    !namedTools.some((pattern) => namesTool(pattern, tool))
  ) {
    return { rule: `${label}.tools`, reason: `custom agent "${custom.name}" does not list it in its tools` };
  }
  return undefined;
}

function namesTool(pattern: string, tool: PoolTool): boolean {
  if (matchesNamePattern(pattern, tool.name)) return true;
  return tool.mcpServer !== undefined && pattern === `mcp__${tool.mcpServer}`;
}

function defaultExclusion(
  tool: PoolTool,
  options: AgentContextOptions,
  applies: boolean,
): { rule: string; reason: string } | undefined {
  if (!applies || !options.defaultAgentExcludedTools) return undefined;
  const by = matchesAnyNamePattern(options.defaultAgentExcludedTools, tool.name);
  return by === undefined
    ? undefined
    : {
        rule: `defaultAgentExcludedTools: ${by}`,
        reason: `excluded for ${options.agent} agents by defaultAgentExcludedTools`,
      };
}

/** Looks up the selected custom agent; an unknown name is a configuration error. */
export function resolveCustomAgent(
  name: string | undefined,
  agents: Readonly<Record<string, CustomAgentPolicy>>,
): AgentContextOptions['customAgent'] {
  if (name === undefined) return undefined;
  const policy = Object.hasOwn(agents, name) ? agents[name] : undefined;
  if (!policy) {
    const known = Object.keys(agents);
    throw new QuiverError(
      'assembly_failed',
      `The custom agent "${name}" is not defined in the personality.`,
      {
        fix:
          known.length > 0
            ? `Use one of: ${known.join(', ')}, or add "${name}" under agents.`
            : `Add "${name}" under agents in the personality.`,
        details: { customAgent: name, known },
      },
    );
  }
  return { name, policy };
}
