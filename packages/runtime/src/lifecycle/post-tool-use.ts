import type { HookCallInfo, PostToolUseFailureHook, PostToolUseHook, ToolResult } from '@quiver/types';
import type { HookRegistry } from '../contracts.js';
import type { CallEventSink, CallState } from './call-events.js';
import { runPostHooks } from './hook-runner.js';
import { decorateResult } from './result-decoration.js';

/**
 * postToolUse hooks for a success, postToolUseFailure hooks for a failure, then what the hooks
 * change about the text the model sees (suppression, context, guidance).
 */
export async function runPostToolUse(
  hooks: HookRegistry,
  call: HookCallInfo,
  state: CallState,
  result: ToolResult,
  signal: AbortSignal,
  sink: CallEventSink,
): Promise<ToolResult> {
  const hookEvent = result.ok ? 'postToolUse' : 'postToolUseFailure';
  const matching = hooks.list(hookEvent, call.toolName);
  // Nothing to run and nothing to add: the result is the tool's own.
  if (matching.length === 0 && state.contexts.length === 0 && state.suppressedBy === undefined) return result;
  const withResult = { ...call, result };
  const postContexts = result.ok
    ? await runPostHooks(matching as PostToolUseHook[], withResult, signal, sink)
    : [];
  const guidance = result.ok
    ? []
    : await runPostHooks(matching as PostToolUseFailureHook[], withResult, signal, sink);
  return decorateResult(result, {
    toolName: call.toolName,
    suppressedBy: state.suppressedBy,
    contexts: [...state.contexts, ...postContexts],
    guidance,
  });
}
