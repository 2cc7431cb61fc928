import type {
  HookCallInfo,
  HookEventName,
  PostToolUseFailureHook,
  PostToolUseHook,
  PreToolUseHook,
  PreToolUseOutcome,
  QuiverEvent,
  ToolHook,
  ToolResult,
} from '@quiver/types';
import { errorMessage } from '@quiver/types';
import type { createEventFactory } from '../events/event-factory.js';

export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

export interface HookRunnerDeps {
  makeEvent: ReturnType<typeof createEventFactory>;
  publish(event: QuiverEvent): void;
}

export interface HookText {
  hook: string;
  text: string;
}

export interface PreToolUseSummary {
  /** Set when a hook denied, threw or timed out: the call must not run. */
  denied?: { hook: string; reason: string };
  approvedBy?: string;
  /** Arguments after every rewrite (the original ones when no hook rewrote them). */
  args: unknown;
  argsRewritten: boolean;
  suppressedBy?: string;
  contexts: HookText[];
}

type HookOutcome<T> = { kind: 'ok'; value: T | undefined } | { kind: 'error' | 'timeout'; message: string };

/**
 * Runs matching preToolUse hooks in registration order. Each sees the arguments as rewritten by
 * the hooks before it; the first deny (or a hook that fails) ends the run, failing closed.
 */
export async function runPreToolUseHooks(
  hooks: readonly PreToolUseHook[],
  call: HookCallInfo,
  signal: AbortSignal,
  deps: HookRunnerDeps,
): Promise<PreToolUseSummary> {
  const summary: PreToolUseSummary = { args: call.args, argsRewritten: false, contexts: [] };
  for (const hook of hooks) {
    const outcome = await runOne<PreToolUseOutcome>(
      hook,
      { ...call, args: summary.args },
      signal,
      deps,
      (value) => (value?.decision === 'deny' ? 'deny' : value?.decision === 'approve' ? 'approve' : 'ok'),
    );
    if (outcome.kind !== 'ok') {
      summary.denied = { hook: hook.name, reason: `preToolUse hook "${hook.name}" ${outcome.message}` };
      return summary;
    }
    const value = outcome.value;
    if (!value) continue;
    if (value.decision === 'deny') {
      summary.denied = {
        hook: hook.name,
        reason: `Denied by hook "${hook.name}"${value.reason ? `: ${value.reason}` : '.'}`,
      };
      return summary;
    }
    if (value.decision === 'approve') summary.approvedBy ??= hook.name;
    if (value.updatedArgs !== undefined) {
      summary.args = value.updatedArgs;
      summary.argsRewritten = true;
    }
    if (value.suppressOutput) summary.suppressedBy ??= hook.name;
    if (value.additionalContext) summary.contexts.push({ hook: hook.name, text: value.additionalContext });
  }
  return summary;
}

/** Runs postToolUse or postToolUseFailure hooks; failures become warnings, never errors. */
export async function runPostHooks(
  hooks: readonly (PostToolUseHook | PostToolUseFailureHook)[],
  call: HookCallInfo & { result: ToolResult },
  signal: AbortSignal,
  deps: HookRunnerDeps,
): Promise<HookText[]> {
  const texts: HookText[] = [];
  for (const hook of hooks) {
    const outcome = await runOne<unknown>(hook, call, signal, deps, () => 'ok');
    if (outcome.kind !== 'ok') {
      deps.publish(
        deps.makeEvent('session.warning', {
          code: 'hook_failed',
          message: `${hook.event} hook "${hook.name}" ${outcome.message}; its output was ignored for call ${call.callId} (${call.toolName}).`,
        }),
      );
      continue;
    }
    const value = outcome.value as { additionalContext?: string; guidance?: string } | undefined;
    const text = hook.event === 'postToolUse' ? value?.additionalContext : value?.guidance;
    if (text) texts.push({ hook: hook.name, text });
  }
  return texts;
}

async function runOne<T>(
  hook: ToolHook,
  call: HookCallInfo & { result?: ToolResult },
  callSignal: AbortSignal,
  deps: HookRunnerDeps,
  classify: (value: T | undefined) => 'ok' | 'deny' | 'approve',
): Promise<HookOutcome<T>> {
  const hookEvent: HookEventName = hook.event;
  deps.publish(deps.makeEvent('hook.started', { callId: call.callId, hook: hook.name, hookEvent }));
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(callSignal.reason);
  callSignal.addEventListener('abort', forwardAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let outcome: HookOutcome<T>;
  try {
    const run = Promise.resolve().then(() =>
      (hook.run as (call: unknown, signal: AbortSignal) => unknown)(call, controller.signal),
    );
    const settled = await Promise.race([run.then((value) => ({ value: value as T | undefined })), timedOut]);
    if (settled === 'timeout') {
      controller.abort(new Error(`hook timed out after ${timeoutMs} ms`));
      outcome = { kind: 'timeout', message: `timed out after ${timeoutMs} ms` };
    } else {
      outcome = { kind: 'ok', value: settled.value ?? undefined };
    }
  } catch (error) {
    outcome = { kind: 'error', message: `threw: ${errorMessage(error)}` };
  } finally {
    clearTimeout(timer);
    callSignal.removeEventListener('abort', forwardAbort);
  }
  deps.publish(
    deps.makeEvent('hook.completed', {
      callId: call.callId,
      hook: hook.name,
      hookEvent,
      outcome: outcome.kind === 'ok' ? classify(outcome.value) : outcome.kind,
      ...(outcome.kind === 'ok' ? {} : { message: outcome.message }),
    }),
  );
  return outcome;
}
