import type { DeferThreshold, ModelProfile, PoolDiagnostic, PoolTool, SessionPolicy } from '../contracts.js';
import { estimateTokens, toDefinition } from './definitions.js';

/** Used when neither the personality nor the model profile sets a threshold. */
export const DEFAULT_DEFER_THRESHOLD: Required<DeferThreshold> = { maxTools: 40, maxTokens: 20_000 };

export interface DeferOptions {
  deferLoading: SessionPolicy['deferLoading'];
  profile: ModelProfile;
  /** Tools found by tool_search: shown in full from now on. */
  expanded?: ReadonlySet<string> | undefined;
  /** Child sessions get every tool in full. */
  disabled?: boolean | undefined;
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
  /** True when some tools are deferred and a search tool is needed. */
  deferred: boolean;
  diagnostics: PoolDiagnostic[];
}

/**
 * Stage 9: above the threshold (tool count or estimated tokens; the personality's settings win
 * over the profile's), MCP and external tools are marked `deferLoading`. `enabled: 'auto'`
 * defers only for profiles that support it; `true` always may, since tool_search works with
 * any provider. Deferred tools stay executable.
 */
export function applyDeferLoading(tools: readonly PoolTool[], options: DeferOptions): DeferResult {
  const unchanged: DeferResult = { tools: [...tools], deferred: false, diagnostics: [] };
  const { enabled } = options.deferLoading;
  if (options.disabled || enabled === false) return unchanged;
  if (enabled === 'auto' && !options.profile.supportsDeferLoading) return unchanged;
  const maxTools =
    options.deferLoading.maxTools ??
    options.profile.deferThreshold?.maxTools ??
    DEFAULT_DEFER_THRESHOLD.maxTools;
  const maxTokens =
    options.deferLoading.maxTokens ??
    options.profile.deferThreshold?.maxTokens ??
    DEFAULT_DEFER_THRESHOLD.maxTokens;
  const overCount = tools.length > maxTools;
  const tokens = overCount ? 0 : estimateTokens(tools.map(toDefinition));
  if (!overCount && tokens <= maxTokens) return unchanged;
  const expanded = options.expanded ?? new Set<string>();
  let deferredCount = 0;
  const result = tools.map((tool) => {
    if (tool.source === 'builtin' || tool.tool.alwaysInclude || expanded.has(tool.name)) return tool;
    deferredCount += 1;
    return deferredCopy(tool);
  });
  if (deferredCount === 0) return unchanged;
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
