import type { RegisteredTool, ToolDefinitionLite, UnloadedTool } from '@quiver/types';
import { z } from 'zod';
import type { ToolNameCatalog } from '../agents/tool-name-resolver.js';
import type {
  ModelProfile,
  PoolDiagnostic,
  PoolTool,
  RemovalReason,
  SessionAgentKind,
  SessionOptions,
  SessionPolicy,
  ToolPool,
} from '../contracts.js';
import { resolveModelProfile } from '../profiles/model-profiles.js';
import { createToolSearchTool, TOOL_SEARCH_TOOL_NAME } from '../search/tool-search-tool.js';
import { applyAgentContext, resolveCustomAgent } from './agent-context.js';
import { collectCandidates } from './candidates.js';
import { applyDeferLoading } from './defer.js';
import { poolSignatureOfTools, toDefinition } from './definitions.js';
import { applyDenyRules } from './deny-rules.js';
import { applyEnabledFilter } from './enabled.js';
import { runWithoutAsking } from './external-tools.js';
import { applyModelProfile } from './model-profile-filter.js';
import { removedToolNotes, toolNameDiagnostics } from './name-diagnostics.js';
import { namedSettings, toolNameCatalog } from './named-settings.js';
import { builtInPrefixLength, orderTools } from './order.js';
import { applyOverrides } from './overrides.js';
import { applyReplMode, callsOtherTools, describeInnerTools } from './repl-mode.js';
import { applySessionFilter } from './session-filter.js';
import type { StageResult } from './stage-result.js';
import { toolsOfWorkers, workerToolsContext } from './worker-tools.js';

export type AssemblySessionOptions = Pick<
  SessionOptions,
  | 'agent'
  | 'customAgent'
  | 'availableTools'
  | 'excludedTools'
  | 'defaultAgentExcludedTools'
  | 'externalTools'
  | 'model'
  | 'permissions'
  | 'stableToolList'
>;

export interface AssemblyInput {
  /** `registry.list()`. */
  registered: readonly RegisteredTool[];
  /** `registry.unloaded()`: tools of plugins left out of this process, known by name only. */
  unloaded?: readonly UnloadedTool[] | undefined;
  policy: SessionPolicy;
  options?: AssemblySessionOptions;
  /** Effective agent kind; defaults to options.agent, then 'main'. */
  agent?: SessionAgentKind;
  /** Deny rules of parent sessions: they bound this one. */
  parentDenies?: readonly string[];
  /** Names in the parent's pool: a child never gets a tool its parent lacks, but for external tools of its own. */
  parentTools?: ReadonlySet<string>;
  /** External tools the child session was given itself: the parent's denies bound them, not its pool. */
  ownExternalTools?: ReadonlySet<string>;
  /** Custom model profiles, tried before the built-in ones. */
  profiles?: readonly ModelProfile[];
  /** Tools tool_search has found: no longer deferred. */
  expandedTools?: ReadonlySet<string>;
  /** Show every tool in full: no deferred loading behind tool_search. */
  stripDeferred?: boolean;
  externalVersion?: number;
  /** Called by the pool's tool_search with the names it found. */
  onToolsFound?: (names: string[]) => void;
}

/**
 * Decides which tools a model call sees and may run, stage by stage (see ARCHITECTURE.md), and
 * records why each other candidate was removed. Pure apart from calling each tool's
 * isEnabled()/isAvailable(). Throws QuiverError('assembly_failed') for an external tool that
 * silently shadows a built-in or an unknown custom agent.
 */
export function assembleToolPool(input: AssemblyInput): ToolPool {
  const options = input.options ?? {};
  const removed = new Map<string, RemovalReason>();
  const diagnostics: PoolDiagnostic[] = [];
  const absorb = (stage: StageResult): PoolTool[] => {
    for (const entry of stage.removed) if (!removed.has(entry.name)) removed.set(entry.name, entry.reason);
    diagnostics.push(...stage.diagnostics);
    return stage.kept;
  };
  const externals = options.externalTools ?? [];
  let tools = absorb(collectCandidates(input.registered, input.policy, externals));
  let catalog: ToolNameCatalog | undefined;
  const knownTools = () => {
    catalog ??= toolNameCatalog(input.registered, externals, input.policy, input.unloaded);
    return catalog;
  };
  tools = absorb(
    applyOverrides(
      tools,
      new Set(
        externals
          .filter((definition) => definition.overridesBuiltInTool)
          .map((definition) => definition.name),
      ),
      input.registered,
    ),
  );
  const denyRules = [
    ...(input.policy.permissions.deny ?? []),
    ...(options.permissions?.deny ?? []),
    ...(input.parentDenies ?? []),
  ];
  diagnostics.push(...toolNameDiagnostics(namedSettings(input.policy, options, denyRules), knownTools));
  tools = absorb(applyDenyRules(tools, denyRules));
  const agent = input.agent ?? options.agent ?? 'main';
  tools = absorb(
    applyEnabledFilter(tools, {
      simpleMode: input.policy.simpleMode,
      repl: input.policy.repl,
      agent,
      mcpServers: enabledMcpServers(input.policy.mcpServers),
    }),
  );
  if (options.availableTools || options.excludedTools)
    diagnostics.push(
      ...removedToolNotes(
        [
          { setting: 'availableTools', names: options.availableTools },
          { setting: 'excludedTools', names: options.excludedTools },
        ],
        knownTools(),
        tools.map((tool) => ({
          name: tool.name,
          aliases: tool.tool.aliases,
          pluginId: tool.pluginId,
          mcpServer: tool.mcpServer,
        })),
        removed,
      ),
    );
  tools = absorb(
    applySessionFilter(tools, {
      toolset: input.policy.toolset,
      availableTools: options.availableTools,
      excludedTools: options.excludedTools,
      knownTools: () => knownTools().tools,
      catalog: knownTools,
    }),
  );
  if (input.parentTools) tools = absorb(boundByParent(tools, input.parentTools, input.ownExternalTools));
  const workerTools = agent === 'coordinator' ? toolsOfWorkers(tools) : undefined;
  tools = absorb(
    applyAgentContext(tools, {
      agent,
      customAgent: resolveCustomAgent(options.customAgent, input.policy.agents),
      defaultAgentExcludedTools: options.defaultAgentExcludedTools,
      hasAllowlist: options.availableTools !== undefined,
    }),
  );
  const replMode = applyReplMode(tools, { repl: input.policy.repl });
  tools = absorb(replMode);
  tools = absorb(orderTools(tools));
  const profile = resolveModelProfile(options.model, {
    profiles: input.profiles,
    overrides: input.policy.modelProfiles,
  });
  tools = absorb(applyModelProfile(tools, profile));
  // Deferring behind a search tool the rules deny would hide those tools for good.
  const searchDenied =
    denyRules.length > 0 && applyDenyRules([searchToolStub()], denyRules).removed.length > 0;
  const deferral = applyDeferLoading(tools, {
    deferLoading: input.policy.deferLoading,
    profile,
    expanded: input.expandedTools,
    disabled: input.stripDeferred || searchDenied,
    serversEnabled: options.stableToolList === true && Object.keys(input.policy.mcpServers).length > 0,
  });
  diagnostics.push(...deferral.diagnostics);
  tools = deferral.tools;
  const prefixLength = builtInPrefixLength(tools);
  let definitions: ToolDefinitionLite[] = [];
  if (deferral.deferred && !tools.some((tool) => tool.name === TOOL_SEARCH_TOOL_NAME)) {
    const search = createToolSearchTool({ definitions: () => definitions, onFound: input.onToolsFound });
    // It only shows definitions of tools this session already has; deny and ask rules still apply.
    runWithoutAsking(search, 'tool_search only shows tools the session already has');
    const searchTool: PoolTool = {
      name: TOOL_SEARCH_TOOL_NAME,
      source: 'builtin',
      tool: search,
      pluginId: undefined,
      mcpServer: undefined,
      deferred: false,
      parameters: toolSearchParameters(search.input),
    };
    // After the built-in prefix, so crossing the threshold leaves the cached prefix intact.
    tools.splice(prefixLength, 0, searchTool);
  }
  definitions = tools.map(toDefinition);
  const scripted = new Set([
    TOOL_SEARCH_TOOL_NAME,
    ...tools.filter(callsOtherTools).map((tool) => tool.name),
  ]);
  definitions = definitions.map((definition, index) =>
    callsOtherTools(tools[index] as PoolTool)
      ? describeInnerTools(
          definition,
          definitions,
          replMode.inner,
          scripted,
          new Set(tools.filter((tool) => tool.source === 'builtin').map((tool) => tool.name)),
        )
      : definition,
  );
  const executables = new Map<string, PoolTool>();
  for (const tool of tools) executables.set(tool.name, tool);
  for (const name of [...removed.keys()]) if (executables.has(name)) removed.delete(name);
  const pool: ToolPool = {
    definitions,
    executables,
    signature: poolSignatureOfTools(tools),
    diagnostics,
    removed,
    profile,
    externalVersion: input.externalVersion ?? 0,
    stablePrefixLength: prefixLength,
  };
  if (replMode.inner.length > 0) pool.innerTools = new Map(replMode.inner.map((tool) => [tool.name, tool]));
  if (workerTools) {
    pool.workerTools = workerTools;
    pool.agentContext = workerToolsContext(workerTools);
  }
  return pool;
}

function enabledMcpServers(servers: SessionPolicy['mcpServers']): string[] {
  return Object.keys(servers).filter((server) => Boolean(servers[server]));
}

function searchToolStub(): PoolTool {
  const tool = createToolSearchTool({ definitions: () => [] });
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    source: 'builtin',
    tool,
    pluginId: undefined,
    mcpServer: undefined,
    deferred: false,
    parameters: {},
  };
}

function boundByParent(
  tools: readonly PoolTool[],
  parentTools: ReadonlySet<string>,
  ownExternalTools: ReadonlySet<string> | undefined,
): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  for (const tool of tools) {
    const own = tool.source === 'external' && ownExternalTools?.has(tool.name) === true;
    if (parentTools.has(tool.name) || own) result.kept.push(tool);
    else
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'session_filter',
          rule: 'parent session',
          reason: 'the parent session does not have it',
        },
      });
  }
  return result;
}

let searchParameters: Record<string, unknown> | undefined;

function toolSearchParameters(input: z.ZodType): Record<string, unknown> {
  searchParameters ??= z.toJSONSchema(input) as Record<string, unknown>;
  return searchParameters;
}
