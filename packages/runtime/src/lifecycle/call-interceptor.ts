import type {
  ExecutionInterceptor,
  HookCallInfo,
  InterceptDecision,
  PermissionResolver,
  PostToolUseFailureHook,
  PostToolUseHook,
  PreparedCall,
  PreToolUseHook,
  QuiverEvent,
  ToolResult,
} from '@quiver/types';
import { fail } from '@quiver/types';
import type { HookRegistry } from '../contracts.js';
import type { createEventFactory } from '../events/event-factory.js';
import { type HookText, runPostHooks, runPreToolUseHooks } from './hook-runner.js';
import { type PathLocks, writtenPaths } from './path-locks.js';
import { checkPermission, type PermissionDecider } from './permission-gate.js';
import { decorateResult } from './result-decoration.js';

/** One call's progress through the lifecycle, kept until its completion event is out. */
export interface CallState {
  callId: string;
  toolName: string;
  turn: number;
  requestedAt: number;
  mcpServer: string | undefined;
  dryRun: boolean;
  completed: boolean;
  suppressedBy: string | undefined;
  contexts: HookText[];
  releaseWriteLock: (() => void) | undefined;
}

export interface CallInterceptorDeps {
  hooks: HookRegistry;
  permissions: PermissionDecider;
  resolver: PermissionResolver | undefined;
  workspace: string;
  writeLocks: PathLocks;
  makeEvent: ReturnType<typeof createEventFactory>;
  publish(event: QuiverEvent): void;
}

/**
 * The runtime's part of core's pipeline: hooks, permission, write serialization and the start
 * event before a call runs; post hooks, hook decorations and the completion event after.
 */
export class CallInterceptor implements ExecutionInterceptor {
  readonly #deps: CallInterceptorDeps;
  readonly #calls = new Map<string, CallState>();

  constructor(deps: CallInterceptorDeps) {
    this.#deps = deps;
  }

  track(state: CallState): void {
    this.#calls.set(state.callId, state);
  }

  has(callId: string): boolean {
    return this.#calls.has(callId);
  }

  /** Closes a call the pipeline refused before the interceptor saw it, then forgets it. */
  settle(callId: string, result: ToolResult): ToolResult {
    const state = this.#calls.get(callId);
    this.#calls.delete(callId);
    return state === undefined ? result : this.complete(state, result);
  }

  async beforeExecute(call: PreparedCall): Promise<InterceptDecision> {
    const state = this.#calls.get(call.callId);
    if (state === undefined)
      return { action: 'result', result: fail('not_available', `Unknown call ${call.callId}.`) };
    const refuse = (result: ToolResult): InterceptDecision => ({
      action: 'result',
      result: this.complete(state, result),
    });
    const deps = this.#deps;

    const hooks = deps.hooks.list('preToolUse', call.toolName) as PreToolUseHook[];
    const summary = await runPreToolUseHooks(hooks, hookInfo(call), call.signal, deps);
    if (summary.denied) return refuse(fail('not_permitted', summary.denied.reason));
    state.suppressedBy = summary.suppressedBy;
    state.contexts.push(...summary.contexts);

    let args = call.args;
    if (summary.argsRewritten) {
      const parsed = await call.tool.input.safeParseAsync(summary.args);
      // Core re-validates the rewrite and reports input_invalid; the call never runs.
      if (!parsed.success) return { action: 'continue', args: summary.args };
      args = parsed.data;
    }
    if (call.signal.aborted) return refuse(abortedBeforeStart(call.toolName, call.signal));

    const denial = await checkPermission(
      {
        callId: call.callId,
        tool: call.tool,
        args,
        mcpServer: state.mcpServer,
        approvedBy: summary.approvedBy,
        signal: call.signal,
      },
      { engine: deps.permissions, resolver: deps.resolver, makeEvent: deps.makeEvent, publish: deps.publish },
    );
    if (denial) return refuse(denial);

    const paths = state.dryRun ? [] : writtenPaths(call.tool, args, deps.workspace);
    if (paths.length > 0) {
      try {
        state.releaseWriteLock = await deps.writeLocks.acquire(paths, call.signal);
      } catch {
        return refuse(abortedBeforeStart(call.toolName, call.signal));
      }
    }
    if (!state.dryRun) {
      deps.publish(
        deps.makeEvent('tool.execution_start', {
          callId: call.callId,
          toolName: call.toolName,
          arguments: args,
          ...(state.mcpServer ? { mcpServer: state.mcpServer } : {}),
          turn: state.turn,
        }),
      );
    }
    return summary.argsRewritten ? { action: 'continue', args } : { action: 'continue' };
  }

  async afterExecute(
    call: PreparedCall,
    result: ToolResult,
    info: { durationMs: number },
  ): Promise<ToolResult> {
    const state = this.#calls.get(call.callId);
    if (state === undefined || state.completed) return result;
    state.releaseWriteLock?.();
    state.releaseWriteLock = undefined;
    const deps = this.#deps;
    const withResult = { ...hookInfo(call), result };
    const postContexts = result.ok
      ? await runPostHooks(
          deps.hooks.list('postToolUse', call.toolName) as PostToolUseHook[],
          withResult,
          call.signal,
          deps,
        )
      : [];
    const guidance = result.ok
      ? []
      : await runPostHooks(
          deps.hooks.list('postToolUseFailure', call.toolName) as PostToolUseFailureHook[],
          withResult,
          call.signal,
          deps,
        );
    const decorated = decorateResult(result, {
      toolName: call.toolName,
      suppressedBy: state.suppressedBy,
      contexts: [...state.contexts, ...postContexts],
      guidance,
    });
    return this.complete(state, decorated, info.durationMs);
  }

  /** Publishes the call's one completion event; every call gets one, whether it ran or not. */
  complete(state: CallState, result: ToolResult, durationMs?: number): ToolResult {
    if (state.completed) return result;
    state.completed = true;
    state.releaseWriteLock?.();
    state.releaseWriteLock = undefined;
    const structured = result.structured === undefined ? {} : { structured: result.structured };
    this.#deps.publish(
      this.#deps.makeEvent('tool.execution_complete', {
        callId: state.callId,
        toolName: state.toolName,
        success: result.ok,
        result: result.ok
          ? { ok: true, value: result.value, ...structured }
          : { ok: false, code: result.code, error: result.error, ...structured },
        durationMs: durationMs ?? performance.now() - state.requestedAt,
        turn: state.turn,
      }),
    );
    return result;
  }
}

function hookInfo(call: PreparedCall): HookCallInfo {
  return {
    callId: call.callId,
    toolName: call.toolName,
    args: call.args,
    sessionId: call.sessionId,
    personalityId: call.personalityId,
    agentId: call.agentId,
    turn: call.turn,
  };
}

function abortedBeforeStart(toolName: string, signal: AbortSignal): ToolResult {
  const reason =
    signal.reason instanceof Error
      ? signal.reason.message
      : signal.reason === undefined
        ? ''
        : String(signal.reason);
  return fail('aborted', `${toolName} was aborted before it started${reason ? `: ${reason}` : ''}`);
}
