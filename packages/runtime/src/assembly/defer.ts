import type { DeferThreshold, ModelProfile, PoolDiagnostic, PoolTool, SessionPolicy } from '../contracts.js';
import { estimateTokens, toDefinition } from './definitions.js';
import { foundToolsWithinBudget } from './found-tools-budget.js';

/**
 * Used when neither the personality nor (for `enabled: true`) the model profile sets a threshold.
 * 12,000 tokens keeps a client's tool list small whatever model sits behind it.
 */
export const DEFAULT_DEFER_THRESHOLD: Required<DeferThreshold> = { maxTools: 40, maxTokens: 12_000 };

export interface DeferOptions {
  deferLoading: SessionPolicy['deferLoading'];
  profile: ModelProfile;
  /** Tools found by tool_search, oldest first: shown in full while they fit under maxTokens. */
  expanded?: ReadonlySet<string> | undefined;
  /** Child sessions get every tool in full. */
  disabled?: boolean | undefined;
  /**
   * Offer tool_search even below the threshold: the personality enables MCP servers and the
   * client may list tools only once, maybe before slow servers connect.
   */
  serversEnabled?: boolean | undefined;
}

const deferredCopies = new WeakMap<PoolTool, PoolTool>();

/** The deferred twin of a pool tool, made once (pool tools are never mutated). */
function deferredCopy(tool: PoolTool): PoolTool {
  let copy = deferredCopies.get(tool);
  if (copy === undefined) {
    copy = { ...tool, deferred: true };
    deferredCopies.set(tool, copy);
  }
  return copy;
}

export interface DeferResult {
  tools: PoolTool[];
  /** True when a search tool is needed: some tools are deferred, or servers may add tools. */
  deferred: boolean;
  diagnostics: PoolDiagnostic[];
}

/**
 * Stage 9: above the threshold, MCP and external tools are marked `deferLoading`. `enabled: 'auto'`
 * decides by the estimated tokens of the definitions (characters / 4, what `quiver tools`
 * prints), never by model: an MCP client's model is unknown, and tool_search works with any
 * provider. It also honours a `maxTools` the personality sets. `true` defers above either
 * threshold, the personality's settings winning over the profile's. Deferred tools stay
 * executable.
 */
export function applyDeferLoading(tools: readonly PoolTool[], options: DeferOptions): DeferResult {
  const unchanged: DeferResult = { tools: [...tools], deferred: false, diagnostics: [] };
  const { enabled } = options.deferLoading;
  if (options.disabled || enabled === false) return unchanged;
  const searchOnly: DeferResult = { ...unchanged, deferred: options.serversEnabled === true };
  const { maxTools, maxTokens } = thresholds(options);
  const overCount = maxTools !== undefined && tools.length > maxTools;
  const tokens = overCount ? 0 : estimateTokens(tools.map(toDefinition));
  if (!overCount && tokens <= maxTokens) return searchOnly;
  const alwaysListed = (tool: PoolTool) => tool.source === 'builtin' || tool.tool.alwaysInclude === true;
  const expanded = foundToolsWithinBudget(tools, options.expanded ?? new Set(), alwaysListed, maxTokens);
  let deferredCount = 0;
  const result = tools.map((tool) => {
    if (alwaysListed(tool) || expanded.has(tool.name)) return tool;
    deferredCount += 1;
    return deferredCopy(tool);
  });
  if (deferredCount === 0) return searchOnly;
  const why = overCount
    ? `${tools.length} tools > maxTools ${maxTools}`
    : `~${tokens} tokens > maxTokens ${maxTokens}`;
  return {
    tools: result,
    deferred: true,
    diagnostics: [
      {
        level: 'info',
        code: 'tools_deferred',
        message: `${deferredCount} MCP/external tools are deferred behind tool_search (${why}).`,
      },
    ],
  };
}

function thresholds(options: DeferOptions): { maxTools: number | undefined; maxTokens: number } {
  const own = options.deferLoading;
  if (own.enabled === 'auto')
    return { maxTools: own.maxTools, maxTokens: own.maxTokens ?? DEFAULT_DEFER_THRESHOLD.maxTokens };
  const profile = options.profile.deferThreshold;
  return {
    maxTools: own.maxTools ?? profile?.maxTools ?? DEFAULT_DEFER_THRESHOLD.maxTools,
    maxTokens: own.maxTokens ?? profile?.maxTokens ?? DEFAULT_DEFER_THRESHOLD.maxTokens,
  };
}
