import { randomUUID } from 'node:crypto';
import {
  type AttachmentLimits,
  capAttachments,
  DEFAULT_ATTACHMENT_LIMITS,
  dryRunResult,
  maxResultChars,
  reduceResult,
  splitBudget,
  type ToolRunner,
  trimResult,
  validateArgsNow,
} from '@quiver/core';
import {
  type AgentIdentity,
  type Attachment,
  type CapabilityBackendRegistry,
  fail,
  type HookCallInfo,
  type PermissionResolver,
  type SessionState,
  type ToolCall,
  type ToolEmission,
  type ToolResult,
  type ToolResultReducerRegistry,
} from '@quiver/types';
import type { HookRegistry, PoolTool, ToolPool } from '../contracts.js';
import { startsAhead } from '../log/start-ahead.js';
import { abortedBeforeStart } from './aborted-results.js';
import {
  type CallEventSink,
  type CallState,
  completeCall,
  publishRequested,
  publishStarted,
} from './call-events.js';
import { lookupPoolTool } from './call-lookup.js';
import { inCallSpan, recordPermission, startCallSpan } from './call-span.js';
import { INNER_RESULT_CHARS, type RunInnerCall, withInnerCalls } from './inner-calls.js';
import { type PathLocks, writtenPaths } from './path-locks.js';
import type { PermissionDecider } from './permission-decider.js';
import { allowedAtOnce, checkPermission } from './permission-gate.js';
import { runPostToolUse } from './post-tool-use.js';
import { type PreToolUseStep, runPreToolUse } from './pre-tool-use.js';
import { settleInOrder } from './settle-in-order.js';
import { callTimeoutFor } from './timeouts.js';
import { normalizeToolName } from './tool-name.js';

/** What every call of a session shares: its identity, its personality's services and its sinks. */
export interface PipelineSession {
  sessionId: string;
  personalityId: string;
  agent: AgentIdentity;
  state: SessionState;
  workspace: string;
  hooks: HookRegistry;
  reducers: ToolResultReducerRegistry;
  backends: CapabilityBackendRegistry;
  permissions: PermissionDecider;
  resolver: PermissionResolver | undefined;
  writeLocks: PathLocks;
  runner: ToolRunner;
  sink: CallEventSink;
  /** Ids of calls still open in this session; a repeated id gets a suffix. */
  openCalls: Set<string>;
  /** See `CallExecutorOptions.awaitTools`. */
  awaitTools?: (names?: readonly string[]) => Promise<ToolPool | undefined>;
  emit(callId: string, emission: ToolEmission, toolName: string): void;
  track(execution: Promise<void>): void;
  attachmentLimits?: Readonly<AttachmentLimits>;
  /** False: no trace span per call (the pipeline's warm-up, which nobody should see). */
  traced?: boolean;
}

/** One batch of model tool calls. */
export interface PipelineBatch {
  pool: ToolPool;
  turn: number;
  model?: string | undefined;
  interactionId?: string | undefined;
  /** The turn's signal: when it aborts, every unfinished call is answered `aborted` at once. */
  signal: AbortSignal;
  /** Watches `signal`'s abort through a listener the turn already has (else one is added per batch). */
  watchAbort?: (listener: () => void) => () => void;
  dryRun: boolean;
  /** See `ExecuteCallsOptions.approvals`. */
  approvals?: Readonly<Record<string, 'once' | 'session'>> | undefined;
  /** Total result budget of the batch in characters. */
  budget: number;
  attachments: readonly Attachment[] | undefined;
  /** Set when the session has ended: every call is refused. */
  closedReason?: string;
}

/**
 * A batch, top to bottom: each call is requested (its id, its pool name, `tool.user_requested`),
 * the budget is split once between the calls the pool knows, the calls run concurrently through
 * `runCall`, and the attachments of all results are capped together. Never throws; input order.
 */
export async function runCallBatch(
  calls: readonly ToolCall[],
  batch: PipelineBatch,
  session: PipelineSession,
): Promise<ToolResult[]> {
  const states = calls.map((call) => requestCall(call, batch, session));
  const known = states.filter((state) => batch.pool.executables.has(state.toolName)).length;
  const perCall = splitBudget(batch.budget, Math.max(known, 1));
  try {
    const results = await settleInOrder(
      states,
      batch.signal,
      perCall,
      session.sink,
      (state) => runCall(state, batch, perCall, session),
      batch.watchAbort,
    );
    return capAttachments(results, session.attachmentLimits ?? DEFAULT_ATTACHMENT_LIMITS, () => perCall);
  } finally {
    for (const state of states) session.openCalls.delete(state.callId);
  }
}

/**
 * One call: lookup and gates → validation → preToolUse hooks → permission → write lock → dry run
 * or execute (core's runner: capabilities, timeout, abort) → reducer → budget → post hooks →
 * completion event. Every return goes through `completeCall`, so each call gets one completion.
 */
export async function runCall(
  state: CallState,
  batch: PipelineBatch,
  budget: number,
  session: PipelineSession,
): Promise<ToolResult> {
  const { sink, hooks } = session;
  const { signal } = batch;
  if (batch.closedReason !== undefined)
    return completeCall(
      state,
      fail('not_available', `${state.toolName} cannot run: ${batch.closedReason}.`),
      sink,
    );

  const entry = lookupPoolTool(state.toolName, batch.pool);
  if ('ok' in entry) return completeCall(state, entry, sink);
  const { tool } = entry;
  if (signal.aborted) return completeCall(state, abortedBeforeStart(state.toolName, signal), sink);

  // Nothing is awaited that is already known: with no hook and a rule that allows at once, the
  // call reaches its tool in the same turn of the event loop, and the work its events queue runs
  // while the tool works instead of before it starts.
  const checked = validateArgsNow(tool.input, state.args, tool.name);
  const validation = checked instanceof Promise ? await checked : checked;
  if (!validation.valid)
    return completeCall(state, trimResult(fail('input_invalid', validation.message), budget), sink);

  const call = hookCallInfo(state, validation.args, session);
  const pre = hasHooks(hooks, 'preToolUse', call.toolName)
    ? await runPreToolUse(hooks, tool, call, signal, sink)
    : noPreToolUse(call.args);
  if (pre.outcome === 'denied')
    return completeCall(state, trimResult(fail('not_permitted', pre.reason), budget), sink);
  const effectiveBudget = Math.min(budget, maxResultChars(entry));
  let result: ToolResult;
  let durationMs = 0;
  if (pre.outcome === 'invalid') {
    result = trimResult(fail('input_invalid', pre.message), effectiveBudget);
  } else {
    state.suppressedBy = pre.suppressedBy;
    state.contexts.push(...pre.contexts);
    const args = pre.args;
    call.args = args;
    if (signal.aborted) return completeCall(state, abortedBeforeStart(state.toolName, signal), sink);

    const approved = batch.approvals?.[state.callId];
    const resolver = approved === undefined ? session.resolver : approvalResolver(approved);
    const permission = { engine: session.permissions, resolver, ...sink };
    const check = {
      callId: state.callId,
      tool,
      args,
      mcpServer: state.mcpServer,
      approvedBy: pre.approvedBy,
      signal,
    };
    const denial = allowedAtOnce(check, permission) ? undefined : await checkPermission(check, permission);
    recordPermission(state.span, denial ? 'deny' : 'allow');
    if (denial) return completeCall(state, trimResult(denial, budget), sink);

    const paths = batch.dryRun ? [] : writtenPaths(tool, args, session.workspace);
    if (paths.length > 0) {
      try {
        state.releaseWriteLock = await session.writeLocks.acquire(paths, signal);
      } catch {
        return completeCall(state, abortedBeforeStart(state.toolName, signal), sink);
      }
    }

    if (batch.dryRun) {
      result = trimResult(dryRunResult(tool.name, args), effectiveBudget);
    } else {
      // Decided from the tool this call runs: an inner call's tool is in its script's pool, which
      // may not be the pool of the session's latest batch (REPL mode takes it off that list).
      publishStarted(state, args, sink, startsAhead(entry));
      const startedAt = performance.now();
      const executed = await inCallSpan(state.span, () =>
        execute(entry, state, args, effectiveBudget, batch, session),
      );
      // A script's inner call sees the tool's own result; the script's result is reduced instead.
      const reduced =
        state.parentCallId === undefined
          ? reduceResult(executed, session.reducers.get(tool.name), tool.name, args)
          : executed;
      result = trimResult(reduced, effectiveBudget);
      durationMs = performance.now() - startedAt;
    }
  }
  state.releaseWriteLock?.();
  state.releaseWriteLock = undefined;

  const decorated = postToolUseNeeded(hooks, call.toolName, state, result)
    ? await runPostToolUse(hooks, call, state, result, signal, sink)
    : result;
  return completeCall(state, decorated, sink, durationMs);
}

/** Core's runner: capabilities, the tool under its timeout and the turn's abort; never throws. */
function execute(
  entry: PoolTool,
  state: CallState,
  args: unknown,
  budget: number,
  batch: PipelineBatch,
  session: PipelineSession,
): Promise<ToolResult> {
  const backends =
    entry.tool.capabilities?.tools === true
      ? withInnerCalls(
          session.backends,
          state,
          batch.pool,
          batch.signal,
          innerCallRunner(batch, session),
          session.awaitTools,
        )
      : session.backends;
  return session.runner.run({
    tool: entry.tool,
    pluginId: entry.pluginId,
    callId: state.callId,
    args,
    sessionId: session.sessionId,
    personalityId: session.personalityId,
    agent: session.agent,
    turn: state.turn,
    signal: batch.signal,
    budget,
    timeoutMs: callTimeoutFor(entry.tool, args),
    backends,
    session: session.state,
    attachments: batch.attachments,
    emit: (emission) => session.emit(state.callId, emission, state.toolName),
    track: session.track,
  });
}

/** Inner calls of one tool call, numbered after it (`call-1.1`, `call-1.2`, …), each a whole pipeline run. */
function innerCallRunner(batch: PipelineBatch, session: PipelineSession): RunInnerCall {
  let count = 0;
  return async (name, args, parent, pool, signal) => {
    count += 1;
    const inner = { ...batch, pool, signal, watchAbort: undefined };
    const state = requestCall({ id: `${parent.callId}.${count}`, name, args }, inner, session, parent);
    try {
      return await runCall(state, inner, INNER_RESULT_CHARS, session);
    } finally {
      session.openCalls.delete(state.callId);
    }
  };
}

/**
 * Call ids made here: a random prefix per process and a counter, as unique as a random UUID per
 * call (a resumed session in another process has another prefix) at a fraction of its cost.
 */
const CALL_ID_PREFIX = randomUUID();
let callIds = 0;

function newCallId(): string {
  callIds += 1;
  return `${CALL_ID_PREFIX}-${callIds.toString(36)}`;
}

/** A call's id (repeats get a suffix so that two calls' events stay distinct), its pool name and its request event. */
function requestCall(
  call: ToolCall,
  batch: PipelineBatch,
  session: PipelineSession,
  parent?: CallState,
): CallState {
  const parentCallId = parent?.callId;
  const requested = call?.id;
  let callId = typeof requested === 'string' && requested.length > 0 ? requested : newCallId();
  if (session.openCalls.has(callId)) callId = `${callId}-${newCallId()}`;
  session.openCalls.add(callId);
  const toolName = normalizeToolName(String(call?.name), batch.pool);
  const entry = batch.pool.executables.get(toolName);
  const state: CallState = {
    callId,
    toolName,
    args: call?.args,
    turn: batch.turn,
    ...(batch.model === undefined ? {} : { model: batch.model }),
    ...(batch.interactionId === undefined ? {} : { interactionId: batch.interactionId }),
    requestedAt: performance.now(),
    mcpServer: entry?.mcpServer ?? entry?.tool.mcp?.server,
    completed: false,
    answered: undefined,
    suppressedBy: undefined,
    contexts: [],
    releaseWriteLock: undefined,
    ...(parentCallId === undefined ? {} : { parentCallId }),
  };
  if (session.traced === false) {
    publishRequested(state, session.sink);
    return state;
  }
  state.span = startCallSpan({
    callId,
    toolName,
    sessionId: session.sessionId,
    turn: batch.turn,
    mcpServer: state.mcpServer,
    parentCallId,
    parentSpan: parent?.span,
  });
  publishRequested(state, session.sink);
  return state;
}

/** Whether `runPostToolUse` has anything to run or add; when not, it answers the result as it is. */
function postToolUseNeeded(
  hooks: HookRegistry,
  toolName: string,
  state: CallState,
  result: ToolResult,
): boolean {
  return (
    state.contexts.length > 0 ||
    state.suppressedBy !== undefined ||
    hooks.list(result.ok ? 'postToolUse' : 'postToolUseFailure', toolName).length > 0
  );
}

function hasHooks(hooks: HookRegistry, event: 'preToolUse', toolName: string): boolean {
  return hooks.list(event, toolName).length > 0;
}

/** What `runPreToolUse` answers when no hook matches, without its turn of the event loop. */
function noPreToolUse(args: unknown): PreToolUseStep {
  return { outcome: 'continue', args, approvedBy: undefined, suppressedBy: undefined, contexts: [] };
}

function hookCallInfo(state: CallState, args: unknown, session: PipelineSession): HookCallInfo {
  return {
    callId: state.callId,
    toolName: state.toolName,
    args,
    sessionId: session.sessionId,
    personalityId: session.personalityId,
    agentId: session.agent.id,
    turn: state.turn,
  };
}

/** The embedder approved this call before it ran (its framework's approval step): answers its ask. */
function approvalResolver(scope: 'once' | 'session'): PermissionResolver {
  return { resolve: async () => ({ behavior: 'allow', scope }) };
}
