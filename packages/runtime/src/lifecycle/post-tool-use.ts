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
  const withResult = { ...call, result };
  const postContexts = result.ok
    ? await runPostHooks(
        hooks.list('postToolUse', call.toolName) as PostToolUseHook[],
        withResult,
        signal,
        sink,
      )
    : [];
  const guidance = result.ok
    ? []
    : await runPostHooks(
        hooks.list('postToolUseFailure', call.toolName) as PostToolUseFailureHook[],
        withResult,
        signal,
        sink,
      );
  return decorateResult(result, {
    toolName: call.toolName,
    suppressedBy: state.suppressedBy,
    contexts: [...state.contexts, ...postContexts],
    guidance,
  });
}
