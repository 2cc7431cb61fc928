import { randomUUID } from 'node:crypto';
import { DefaultToolRegistry } from '@quiver/core';
import type {
  AgentIdentity,
  EventBus,
  ExecuteContext,
  PermissionResolver,
  PermissionRules,
  QuiverEvent,
  SessionState,
  ToolCall,
  ToolEmission,
  ToolRegistry,
  ToolResult,
} from '@quiver/types';
import { DEFAULT_RESULT_BUDGET, fail, isDurableEvent } from '@quiver/types';
import type { ExecuteCallsOptions, PoolTool, SessionDeps, SessionEventLog, ToolPool } from '../contracts.js';
import { createEventFactory } from '../events/event-factory.js';
import { SessionLogWriter } from '../log/session-log-writer.js';
import { CallInterceptor } from './call-interceptor.js';
import { PathLocks } from './path-locks.js';
import { createSessionPermissionEngine, type SessionPermissionEngine } from './permission-engine.js';
import { callTimeoutFor } from './timeouts.js';
import { normalizeToolName } from './tool-name.js';
import { TurnSignals } from './turn-signals.js';

/** What a session hands the execution lifecycle. */
export interface CallExecutorOptions {
  sessionId: string;
  deps: SessionDeps;
  state: SessionState;
  /** The session's bus; every lifecycle event is published here. */
  events: EventBus;
  agent: AgentIdentity;
  /** Effective rules: personality, then session options. */
  permissions: PermissionRules;
  /** Deny rules inherited from parent sessions; they bound this session. */
  parentDenies: string[];
  resolver?: PermissionResolver;
  log?: SessionEventLog;
}

export interface CallExecutor {
  /** Runs calls against the pool; never throws; results in input order. */
  execute(calls: readonly ToolCall[], pool: ToolPool, options?: ExecuteCallsOptions): Promise<ToolResult[]>;
  /** Aborts every call of a turn (all turns when omitted); each completes with `aborted`. */
  abort(reason?: string, turn?: number): void;
  dispose(): Promise<void>;
  /** Calls an earlier process of this session started and never completed; now marked interrupted. */
  readonly interruptedCalls: readonly string[];
}

export function createCallExecutor(options: CallExecutorOptions): CallExecutor {
  return new LifecycleExecutor(options);
}

interface QueuedCall {
  index: number;
  call: ToolCall & { id: string };
}

class LifecycleExecutor implements CallExecutor {
  readonly #options: CallExecutorOptions;
  readonly #makeEvent: ReturnType<typeof createEventFactory>;
  readonly #permissions: SessionPermissionEngine;
  readonly #interceptor: CallInterceptor;
  /** External tools and overridden built-ins: callables the shared registry does not hold. */
  readonly #sessionRegistry: DefaultToolRegistry;
  readonly #turns = new TurnSignals();
  readonly #running = new Set<Promise<unknown>>();
  /** Tool executions, which can outlive their answered call (a command still being killed). */
  readonly #executions = new Set<Promise<void>>();
  readonly #log: SessionLogWriter | undefined;
  #disposed = false;

  constructor(options: CallExecutorOptions) {
    this.#options = options;
    this.#makeEvent = createEventFactory(options.sessionId);
    this.#sessionRegistry = new DefaultToolRegistry({ reducers: options.deps.reducers });
    this.#permissions = createSessionPermissionEngine({
      workspace: options.deps.workspace,
      dataDir: options.deps.dataDir,
      rules: options.permissions,
      parentDenies: options.parentDenies,
      registry: options.deps.registry,
      ...(options.deps.protectedPaths ? { protectedPaths: options.deps.protectedPaths } : {}),
    });
    this.#interceptor = new CallInterceptor({
      hooks: options.deps.hooks,
      permissions: this.#permissions,
      resolver: options.resolver,
      workspace: options.deps.workspace,
      writeLocks: new PathLocks(),
      makeEvent: this.#makeEvent,
      publish: (event) => this.#publish(event),
    });
    if (options.log !== undefined) {
      this.#log = new SessionLogWriter({
        log: options.log,
        session: {
          id: options.sessionId,
          personalityId: options.deps.policy.personalityId,
          agent: options.agent.name ?? options.agent.kind,
        },
        onProblem: (code, message) => this.#publish(this.#makeEvent('session.warning', { code, message })),
        onRecovered: (callIds) =>
          this.#publish(
            this.#makeEvent('session.warning', {
              code: 'interrupted',
              message: `Session ${options.sessionId} resumed after its process ended mid-call; marked interrupted: ${callIds.join(', ')}.`,
            }),
          ),
      });
      this.#log.start();
    }
  }

  get interruptedCalls(): readonly string[] {
    return this.#log?.interruptedCalls ?? [];
  }

  execute(
    calls: readonly ToolCall[],
    pool: ToolPool,
    options: ExecuteCallsOptions = {},
  ): Promise<ToolResult[]> {
    const run = this.#execute(calls, pool, options);
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
    return run;
  }

  abort(reason = 'aborted', turn?: number): void {
    this.#publish(this.#makeEvent('abort', { reason, ...(turn === undefined ? {} : { turn }) }));
    this.#turns.abort(reason, turn);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#turns.abort('the session ended');
    await Promise.allSettled([...this.#running]);
    await waitAtMost(Promise.allSettled([...this.#executions]), TOOL_STOP_PATIENCE_MS);
    this.#permissions.close();
    for (const registered of this.#sessionRegistry.list())
      this.#sessionRegistry.unregister(registered.tool.name);
    await this.#log?.close();
  }

  async #execute(
    calls: readonly ToolCall[],
    pool: ToolPool,
    options: ExecuteCallsOptions,
  ): Promise<ToolResult[]> {
    const turn = options.turn ?? 0;
    const dryRun = options.dryRun === true;
    const results: (ToolResult | undefined)[] = new Array(calls.length);
    const shared: QueuedCall[] = [];
    const session: QueuedCall[] = [];
    const seen = new Set<string>();

    for (const [index, original] of calls.entries()) {
      const callId = this.#uniqueCallId(original?.id, seen);
      const toolName = normalizeToolName(String(original?.name), pool);
      const entry = pool.executables.get(toolName);
      const state = {
        callId,
        toolName,
        turn,
        requestedAt: performance.now(),
        mcpServer: entry?.mcpServer ?? entry?.tool.mcp?.server,
        dryRun,
        completed: false,
        suppressedBy: undefined,
        contexts: [],
        releaseWriteLock: undefined,
      };
      this.#interceptor.track(state);
      this.#publish(
        this.#makeEvent('tool.user_requested', { callId, toolName, arguments: original?.args, turn }),
      );
      if (this.#disposed || entry === undefined) {
        const message = this.#disposed
          ? `${toolName} cannot run: the session has ended.`
          : notInPoolMessage(toolName, pool);
        results[index] = this.#interceptor.settle(callId, fail('not_available', message));
        continue;
      }
      const queued: QueuedCall = { index, call: { id: callId, name: toolName, args: original.args } };
      (this.#routesToSession(entry) ? session : shared).push(queued);
    }

    const runnable = shared.length + session.length;
    if (runnable > 0) {
      const turnSignal = this.#turns.enter(turn);
      const external = options.signal;
      const onExternalAbort = () => this.abort(reasonOf(external?.reason), turn);
      if (external?.aborted) onExternalAbort();
      else external?.addEventListener('abort', onExternalAbort, { once: true });
      try {
        const total = this.#options.deps.policy.budget?.resultChars ?? DEFAULT_RESULT_BUDGET;
        const allowed = [...pool.executables.keys()];
        const runGroup = async (registry: ToolRegistry, group: QueuedCall[]) => {
          if (group.length === 0) return;
          // The batch budget is shared by both registries in proportion to their calls.
          const context = this.#contextFor(
            turn,
            turnSignal.signal,
            dryRun,
            Math.floor((total * group.length) / runnable),
          );
          const groupResults = await registry.executeParallel(
            group.map((item) => item.call),
            context,
            allowed,
            undefined,
            options.attachments,
          );
          group.forEach((item, position) => {
            results[item.index] = groupResults[position];
          });
        };
        this.#syncSessionRegistry(session, pool);
        await Promise.all([
          runGroup(this.#options.deps.registry, shared),
          runGroup(this.#sessionRegistry, session),
        ]);
      } finally {
        external?.removeEventListener('abort', onExternalAbort);
        turnSignal.leave();
      }
    }

    // Closes calls the core pipeline refused before the interceptor saw them (invalid args, gates).
    for (const item of [...shared, ...session]) {
      const result = results[item.index] ?? fail('execution_failed', 'The call produced no result.');
      results[item.index] = this.#interceptor.settle(item.call.id, result);
    }
    return results.map((result) => result ?? fail('execution_failed', 'The call produced no result.'));
  }

  #contextFor(turn: number, signal: AbortSignal, dryRun: boolean, budget: number): ExecuteContext {
    const { deps, sessionId, agent, state } = this.#options;
    return {
      sessionId,
      personalityId: deps.policy.personalityId,
      agent,
      turn,
      signal,
      budget,
      dryRun,
      session: state,
      backends: deps.backends,
      interceptor: this.#interceptor,
      timeoutFor: callTimeoutFor,
      reducers: deps.reducers,
      track: (execution) => {
        this.#executions.add(execution);
        void execution.then(() => this.#executions.delete(execution));
      },
      emit: (callId, emission) => this.#publish(this.#emissionEvent(callId, emission)),
    };
  }

  #emissionEvent(callId: string, emission: ToolEmission): QuiverEvent {
    if (emission.type === 'partial')
      return this.#makeEvent('tool.execution_partial_result', { callId, text: emission.text });
    return this.#makeEvent('tool.execution_progress', {
      callId,
      progress: emission.progress,
      ...(emission.total === undefined ? {} : { total: emission.total }),
      ...(emission.message === undefined ? {} : { message: emission.message }),
    });
  }

  /** Every event goes to the session's bus; durable ones and call starts also go to the log. */
  #publish(event: QuiverEvent): void {
    this.#options.events.publish(event);
    if (this.#log === undefined || !(isDurableEvent(event) || event.type === 'tool.execution_start')) return;
    this.#log.append(event);
  }

  /** Tools whose callable is not the one in the shared registry run from the session's own. */
  #routesToSession(entry: PoolTool): boolean {
    return entry.source === 'external' || this.#options.deps.registry.get(entry.name)?.tool !== entry.tool;
  }

  #syncSessionRegistry(queued: readonly QueuedCall[], pool: ToolPool): void {
    for (const { call } of queued) {
      const entry = pool.executables.get(call.name);
      if (entry === undefined || this.#sessionRegistry.get(call.name)?.tool === entry.tool) continue;
      this.#sessionRegistry.unregister(call.name);
      this.#sessionRegistry.register(
        entry.tool,
        entry.pluginId === undefined ? {} : { pluginId: entry.pluginId },
      );
    }
  }

  /** A repeated id would make two calls' events indistinguishable, so repeats get a suffix. */
  #uniqueCallId(requested: unknown, seen: Set<string>): string {
    let callId = typeof requested === 'string' && requested.length > 0 ? requested : randomUUID();
    if (seen.has(callId) || this.#interceptor.has(callId)) callId = `${callId}-${randomUUID().slice(0, 8)}`;
    seen.add(callId);
    return callId;
  }
}

/** How long closing a session waits for tools still stopping (a command's kill step) before it lets go. */
const TOOL_STOP_PATIENCE_MS = 10_000;

async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function notInPoolMessage(toolName: string, pool: ToolPool): string {
  const removal = pool.removed.get(toolName);
  if (removal === undefined) {
    return `${toolName} is not available in this session: no tool of that name is in the session's tool pool.`;
  }
  return `${toolName} is not available in this session: ${removal.reason} (${removal.stage}: ${removal.rule})`;
}

function reasonOf(reason: unknown): string {
  if (reason instanceof Error) return reason.name === 'AbortError' ? 'aborted' : reason.message;
  return reason === undefined ? 'aborted' : String(reason);
}
