import { validateArgs } from '@quiver/core';
import type { HookCallInfo, PreToolUseHook, Tool } from '@quiver/types';
import type { HookRegistry } from '../contracts.js';
import type { CallEventSink } from './call-events.js';
import { type HookText, runPreToolUseHooks } from './hook-runner.js';

export type PreToolUseStep =
  | { outcome: 'denied'; reason: string }
  | { outcome: 'invalid'; message: string }
  | {
      outcome: 'continue';
      args: unknown;
      approvedBy: string | undefined;
      suppressedBy: string | undefined;
      contexts: HookText[];
    };

/**
 * The preToolUse hooks of a call, in registration order; rewritten arguments are validated
 * again, and a rewrite the schema rejects stops the call before permission is asked.
 */
export async function runPreToolUse(
  hooks: HookRegistry,
  tool: Tool,
  call: HookCallInfo,
  signal: AbortSignal,
  sink: CallEventSink,
): Promise<PreToolUseStep> {
  const matching = hooks.list('preToolUse', call.toolName) as PreToolUseHook[];
  if (matching.length === 0)
    return {
      outcome: 'continue',
      args: call.args,
      approvedBy: undefined,
      suppressedBy: undefined,
      contexts: [],
    };
  const summary = await runPreToolUseHooks(matching, call, signal, sink);
  if (summary.denied) return { outcome: 'denied', reason: summary.denied.reason };
  let args = call.args;
  if (summary.argsRewritten) {
    const validation = await validateArgs(tool.input, summary.args, tool.name);
    if (!validation.valid)
      return { outcome: 'invalid', message: `${validation.message} (rewritten before execution)` };
    args = validation.args;
  }
  return {
    outcome: 'continue',
    args,
    approvedBy: summary.approvedBy,
    suppressedBy: summary.suppressedBy,
    contexts: summary.contexts,
  };
}
