import { QuiverError } from '@quiver/types';
import {
  AGENT_TOOL_POLICIES,
  CUSTOM_AGENT_DISALLOWED_TOOLS,
  CUSTOM_AGENT_MANDATORY_TOOLS,
} from '../agents/agent-policies.js';
import { firstNaming, type NamedTool } from '../agents/tool-name-resolver.js';
import type { CustomAgentPolicy, PoolTool, SessionAgentKind, ToolPool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

export interface AgentContextOptions {
  agent: SessionAgentKind;
  /** Name and policy of the selected custom agent. */
  customAgent?: { name: string; policy: CustomAgentPolicy } | undefined;
  defaultAgentExcludedTools?: readonly string[] | undefined;
  /** An explicit session allowlist (availableTools) is present: it wins over defaultAgentExcludedTools. */
  hasAllowlist?: boolean | undefined;
}

/** The rule a defaultAgentExcludedTools removal is recorded under (children still get the tool). */
export const DEFAULT_AGENT_EXCLUSION_RULE = 'defaultAgentExcludedTools';

/**
 * Stage 6: the agent kind's policy from AGENT_TOOL_POLICIES, then the selected custom agent's
 * tools and disallowedTools, then defaultAgentExcludedTools for the default agent (a main
 * session with no custom agent and no availableTools). Every list is read through the name
 * resolver (names, aliases, Claude Code names, plugin ids, `mcp__server__*`). MCP tools pass
 * the kind's policy (a coordinator keeps only the MCP suffixes it names); a custom agent's
 * named list narrows them like any tool.
 */
export function applyAgentContext(tools: readonly PoolTool[], options: AgentContextOptions): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const policy = AGENT_TOOL_POLICIES[options.agent];
  const custom = options.customAgent;
  const namedTools =
    custom?.policy.tools && !custom.policy.tools.includes('*') ? custom.policy.tools : undefined;
  const excludes =
    policy.appliesDefaultAgentExcludes && !custom && !options.hasAllowlist
      ? options.defaultAgentExcludedTools
      : undefined;
  if (!custom && !policy.allow && !policy.mcpSuffixes && policy.deny.length === 0 && !excludes?.length) {
    result.kept = [...tools];
    return result;
  }
  for (const tool of tools) {
    const named = namedToolOf(tool);
    const removal =
      kindRemoval(tool, named, options.agent) ??
      customRemoval(tool, named, custom, namedTools) ??
      defaultExclusion(named, excludes);
    if (removal) result.removed.push({ name: tool.name, reason: { stage: 'agent_context', ...removal } });
    else result.kept.push(tool);
  }
  const onlySupportTools = !result.kept.some((tool) => !CUSTOM_AGENT_MANDATORY_TOOLS.includes(tool.name));
  if (custom && namedTools && namedTools.length > 0 && onlySupportTools) {
    result.diagnostics.push({
      level: 'warning',
      code: 'custom_agent_without_tools',
      message: `Custom agent "${custom.name}" lists tools (${namedTools.join(', ')}) but none of them is available in this session.`,
    });
  }
  return result;
}

function namedToolOf(tool: PoolTool): NamedTool {
  return { name: tool.name, aliases: tool.tool.aliases, pluginId: tool.pluginId, mcpServer: tool.mcpServer };
}

function kindRemoval(
  tool: PoolTool,
  named: NamedTool,
  agent: SessionAgentKind,
): { rule: string; reason: string } | undefined {
  const policy = AGENT_TOOL_POLICIES[agent];
  if (tool.source === 'mcp') {
    if (!policy.mcpSuffixes || policy.mcpSuffixes.some((suffix) => tool.name.endsWith(suffix)))
      return undefined;
    return {
      rule: `${policy.ruleName} (MCP suffixes)`,
      reason: `a ${agent} session keeps only MCP tools ending in ${policy.mcpSuffixes.join(', ')}`,
    };
  }
  const denied = firstNaming(policy.deny, named);
  if (denied !== undefined)
    return {
      rule: `ALL_AGENT_DISALLOWED_TOOLS: ${denied}`,
      reason: `no ${agent} agent may use "${tool.name}"`,
    };
  if (policy.allow && firstNaming(policy.allow, named) === undefined) {
    return { rule: policy.ruleName, reason: `not among the tools a ${agent} agent may use` };
  }
  return undefined;
}

function customRemoval(
  tool: PoolTool,
  named: NamedTool,
  custom: AgentContextOptions['customAgent'],
  namedTools: readonly string[] | undefined,
): { rule: string; reason: string } | undefined {
  if (!custom) return undefined;
  const label = `agents.${custom.name}`;
  const forbidden = tool.source === 'mcp' ? undefined : firstNaming(CUSTOM_AGENT_DISALLOWED_TOOLS, named);
  if (forbidden !== undefined) {
    return {
      rule: `CUSTOM_AGENT_DISALLOWED_TOOLS: ${forbidden}`,
      reason: `custom agents may not use "${tool.name}"`,
    };
  }
  const disallowed = custom.policy.disallowedTools
    ? firstNaming(custom.policy.disallowedTools, named)
    : undefined;
  if (disallowed !== undefined)
    return {
      rule: `${label}.disallowedTools: ${disallowed}`,
      reason: `custom agent "${custom.name}" disallows it`,
    };
  if (
    namedTools &&
    !CUSTOM_AGENT_MANDATORY_TOOLS.includes(tool.name) &&
    firstNaming(namedTools, named) === undefined
  ) {
    return { rule: `${label}.tools`, reason: `custom agent "${custom.name}" does not list it in its tools` };
  }
  return undefined;
}

function defaultExclusion(
  named: NamedTool,
  excludes: readonly string[] | undefined,
): { rule: string; reason: string } | undefined {
  const by = excludes ? firstNaming(excludes, named) : undefined;
  return by === undefined
    ? undefined
    : {
        rule: `${DEFAULT_AGENT_EXCLUSION_RULE}: ${by}`,
        reason: 'hidden from the default agent by defaultAgentExcludedTools (sub-agents keep it)',
      };
}

/**
 * The tools a child session may have: the parent's pool plus what defaultAgentExcludedTools
 * hid from the parent alone, since those exclusions exist to leave such tools to sub-agents.
 */
export function toolsForChildren(pool: Pick<ToolPool, 'executables' | 'removed'>): Set<string> {
  const names = new Set(pool.executables.keys());
  for (const [name, reason] of pool.removed) {
    if (reason.stage === 'agent_context' && reason.rule.startsWith(`${DEFAULT_AGENT_EXCLUSION_RULE}:`))
      names.add(name);
  }
  return names;
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
