import { ToolRunner } from '@quiver/core';
import type {
  AgentIdentity,
  CapabilityBackendRegistry,
  EventBus,
  PermissionResolver,
  PermissionRules,
  QuiverEvent,
  SessionState,
  ToolCall,
  ToolEmission,
  ToolResult,
} from '@quiver/types';
import { DEFAULT_RESULT_BUDGET, isDurableEvent } from '@quiver/types';
import type { ExecuteCallsOptions, SessionDeps, SessionEventLog, ToolPool } from '../contracts.js';
import { createEventFactory } from '../events/event-factory.js';
import { recordedEvent } from '../log/argument-shapes.js';
import { SessionLogWriter } from '../log/session-log-writer.js';
import { type BatchAbort, BatchAborts } from './batch-aborts.js';
import { type PipelineSession, runCallBatch } from './call-pipeline.js';
import { PathLocks } from './path-locks.js';
import type { SessionPermissionEngine } from './permission-decider.js';
import { sessionPermissionEngine } from './permission-engine.js';
import { type CallCheck, checkCalls } from './permission-preview.js';
import { firstParses, warmPipeline } from './pipeline-warm-up.js';
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
  /**
   * The session's own log writer, when the session scope owns it (one per session, kept across
   * executors): the executor writes through it and leaves closing it to its owner. Without it,
   * an executor given `log` opens and closes a writer of its own.
   */
  logWriter?: SessionLogWriter;
  /**
   * Waits for the MCP servers of the named tools (all of them without names) that are still
   * starting (the session's readiness, `session.ready`), then gives the pool as it stands;
   * undefined when there was none to wait for.
   * Inner calls (a repl script's) use it for a tool their call's pool does not offer yet.
   */
  awaitTools?: (names?: readonly string[]) => Promise<ToolPool | undefined>;
  /** The signed-in caller the session runs for (`SessionOptions.caller`), recorded in the log. */
  caller?: string;
}

/** A session's log writer; its warnings (a busy log, calls a killed process left) go to the session's bus. */
export function openSessionLogWriter(
  options: Pick<CallExecutorOptions, 'sessionId' | 'deps' | 'events' | 'agent' | 'caller'> & {
    log: SessionEventLog;
    /** Said once when the session closes if its log lost events (the host's logger: stderr). */
    reportLoss?: (message: string) => void;
  },
): SessionLogWriter {
  const makeEvent = createEventFactory(options.sessionId);
  const warn = (code: string, message: string) => {
    const event = makeEvent('session.warning', { code, message });
    options.events.publish(event);
    writer.append(event);
  };
  const writer = new SessionLogWriter({
    log: options.log,
    session: {
      id: options.sessionId,
      personalityId: options.deps.policy.personalityId,
      agent: options.agent.name ?? options.agent.kind,
      ...(options.caller === undefined ? {} : { caller: options.caller }),
    },
    onProblem: warn,
    onRecovered: (callIds) =>
      warn(
        'interrupted',
        `Session ${options.sessionId} resumed after its process ended mid-call; marked interrupted: ${callIds.join(', ')}.`,
      ),
    gapEvent: (message) => makeEvent('session.warning', { code: 'log_gap', message }),
    ...(options.reportLoss ? { onLossReport: options.reportLoss } : {}),
  });
  writer.start();
  return writer;
}

export interface CallExecutor {
  /** Runs calls against the pool; never throws; results in input order. */
  execute(calls: readonly ToolCall[], pool: ToolPool, options?: ExecuteCallsOptions): Promise<ToolResult[]>;
  /** Each call's permission decision as `execute` would reach it, asking and running nothing. */
  check(calls: readonly ToolCall[], pool: ToolPool): Promise<CallCheck[]>;
  /**
   * Runs the pipeline once on a stand-in tool that nobody sees (see `warmPipeline`), so that the
   * session's first call does not pay for its first compilation. Never throws.
   */
  warmUp?(pool: ToolPool | undefined): Promise<void>;
  /** Aborts every call of a turn (all turns when omitted); each completes with `aborted`. */
  abort(reason?: string, turn?: number): void;
  dispose(): Promise<void>;
  /** Writes an event of the session's own (not a call's) to the session's log, if it is durable. */
  record?(event: QuiverEvent): void;
  /** Calls an earlier process of this session started and never completed; now marked interrupted. */
  readonly interruptedCalls: readonly string[];
}

export function createCallExecutor(options: CallExecutorOptions): CallExecutor {
  return new LifecycleExecutor(options);
}

class LifecycleExecutor implements CallExecutor {
  readonly #options: CallExecutorOptions;
  readonly #makeEvent: ReturnType<typeof createEventFactory>;
  readonly #permissions: SessionPermissionEngine;
  readonly #pipeline: PipelineSession;
  readonly #turns = new TurnSignals();
  readonly #batchAborts = new BatchAborts();
  /** Batches still running, and who waits for there to be none (closing the session). */
  #running = 0;
  #idle: (() => void) | undefined;
  /** Tool executions, which can outlive their answered call (a command still being killed). */
  readonly #executions = new Set<Promise<void>>();
  readonly #log: SessionLogWriter | undefined;
  readonly #ownsLog: boolean;
  #disposed = false;
  #warmed = false;

  constructor(options: CallExecutorOptions) {
    this.#options = options;
    this.#makeEvent = createEventFactory(options.sessionId);
    const { deps } = options;
    this.#permissions = sessionPermissionEngine(deps, {
      rules: options.permissions,
      parentDenies: options.parentDenies,
      ...(options.caller === undefined ? {} : { caller: options.caller }),
    });
    this.#pipeline = {
      sessionId: options.sessionId,
      personalityId: deps.policy.personalityId,
      agent: options.agent,
      state: options.state,
      workspace: deps.workspace,
      hooks: deps.hooks,
      reducers: deps.reducers,
      backends: withSessionDenies(deps.backends, [
        ...(options.permissions.deny ?? []),
        ...options.parentDenies,
      ]),
      permissions: this.#permissions,
      resolver: options.resolver,
      writeLocks: new PathLocks(),
      runner: new ToolRunner(),
      sink: { makeEvent: this.#makeEvent, publish: (event, ahead) => this.#publish(event, ahead) },
      openCalls: new Set(),
      ...(options.awaitTools === undefined ? {} : { awaitTools: options.awaitTools }),
      emit: (callId, emission, toolName) => this.#publish(this.#emissionEvent(callId, emission, toolName)),
      track: (execution) => {
        this.#executions.add(execution);
        void execution.then(() => this.#executions.delete(execution));
      },
    };
    this.#ownsLog = options.logWriter === undefined;
    this.#log =
      options.logWriter ??
      (options.log === undefined ? undefined : openSessionLogWriter({ ...options, log: options.log }));
  }

  get interruptedCalls(): readonly string[] {
    return this.#log?.interruptedCalls ?? [];
  }

  execute(
    calls: readonly ToolCall[],
    pool: ToolPool,
    options: ExecuteCallsOptions = {},
  ): Promise<ToolResult[]> {
    return this.#execute(calls, pool, options);
  }

  /** Each call's permission decision as `execute` would reach it, asking and running nothing. */
  check(calls: readonly ToolCall[], pool: ToolPool): Promise<CallCheck[]> {
    return checkCalls(Array.isArray(calls) ? calls : [], pool, this.#permissions);
  }

  async warmUp(pool: ToolPool | undefined): Promise<void> {
    if (this.#disposed) return;
    // Once run, the pipeline is compiled for the process: a later pool only adds its schemas.
    if (this.#warmed) {
      if (pool !== undefined) firstParses(pool);
      return;
    }
    this.#warmed = true;
    const logArguments = this.#options.deps.policy.logArguments;
    // What `#publish` makes of an event for the log, made and dropped: nothing is published.
    const record = (event: QuiverEvent) => {
      if (isDurableEvent(event) || event.type === 'tool.execution_start') recordedEvent(event, logArguments);
    };
    await warmPipeline(this.#pipeline, pool, record).catch(() => undefined);
  }

  abort(reason = 'aborted', turn?: number): void {
    this.#publish(this.#makeEvent('abort', { reason, ...(turn === undefined ? {} : { turn }) }));
    this.#turns.abort(reason, turn);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#turns.abort('the session ended');
    if (this.#running > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    await waitAtMost(Promise.allSettled([...this.#executions]), TOOL_STOP_PATIENCE_MS);
    this.#permissions.close();
    if (this.#ownsLog) await this.#log?.close();
    else this.#log?.flush();
  }

  async #execute(
    calls: readonly ToolCall[],
    pool: ToolPool,
    options: ExecuteCallsOptions,
  ): Promise<ToolResult[]> {
    const turn = options.turn ?? 0;
    const turnSignal = this.#turns.enter(turn);
    const external = options.signal;
    const { cancel } = options;
    // A caller's signal or cancel handle stops this batch, not the other batches of its turn
    // (`quiver serve` runs every client request in turn 0, several at once): such a batch gets
    // its own controller, aborted with the turn too. A batch without either makes none.
    let batchSignal: AbortSignal = turnSignal.signal;
    let watchAbort: ((listener: () => void) => () => void) | undefined = turnSignal.watch;
    let unwatchTurn: (() => void) | undefined;
    let onExternalAbort: (() => void) | undefined;
    let own: BatchAbort | undefined;
    if (external !== undefined || cancel !== undefined) {
      const batch = this.#batchAborts.take();
      own = batch;
      const abortBatch = (reason: string) => {
        if (batch.signal.aborted) return;
        this.#publish(this.#makeEvent('abort', { reason, turn }));
        batch.abort(new Error(reason));
      };
      if (turnSignal.signal.aborted) batch.abort(turnSignal.signal.reason);
      else unwatchTurn = turnSignal.watch(() => batch.abort(turnSignal.signal.reason));
      batchSignal = batch.signal;
      watchAbort = batch.watch;
      if (external !== undefined) {
        onExternalAbort = () => abortBatch(reasonOf(external.reason));
        if (external.aborted) onExternalAbort();
        else external.addEventListener('abort', onExternalAbort, { once: true });
      }
      cancel?.bind((reason) => abortBatch(reasonOf(reason)));
    }
    this.#running += 1;
    try {
      return await runCallBatch(
        Array.isArray(calls) ? calls : [],
        {
          pool,
          turn,
          model: options.model,
          interactionId: options.interactionId,
          signal: batchSignal,
          watchAbort,
          dryRun: options.dryRun === true,
          approvals: options.approvals,
          budget: this.#options.deps.policy.budget?.resultChars ?? DEFAULT_RESULT_BUDGET,
          attachments: options.attachments,
          ...(this.#disposed ? { closedReason: 'the session has ended' } : {}),
        },
        this.#pipeline,
      );
    } finally {
      if (onExternalAbort !== undefined) external?.removeEventListener('abort', onExternalAbort);
      unwatchTurn?.();
      cancel?.unbind();
      own?.release();
      turnSignal.leave();
      // The end of a batch is the end of the model's turn for these calls: its events become durable.
      this.#log?.flush();
      this.#running -= 1;
      if (this.#running === 0 && this.#idle !== undefined) {
        this.#idle();
        this.#idle = undefined;
      }
    }
  }

  #emissionEvent(callId: string, emission: ToolEmission, toolName: string): QuiverEvent {
    if (emission.type === 'partial')
      return this.#makeEvent('tool.execution_partial_result', { callId, text: emission.text });
    if (emission.type === 'log')
      return this.#makeEvent('tool.execution_log', {
        callId,
        toolName,
        level: emission.level,
        message: emission.message.slice(0, MAX_LOG_MESSAGE_CHARS),
      });
    return this.#makeEvent('tool.execution_progress', {
      callId,
      progress: emission.progress,
      ...(emission.total === undefined ? {} : { total: emission.total }),
      ...(emission.message === undefined ? {} : { message: emission.message }),
    });
  }

  record(event: QuiverEvent): void {
    if (this.#log !== undefined && isDurableEvent(event)) this.#log.append(event, false);
  }

  /**
   * Every event goes to the session's bus; durable ones and call starts also go to the log.
   * `ahead`: the pipeline found the call's tool to be one whose start is committed before it runs.
   */
  #publish(event: QuiverEvent, ahead = false): void {
    this.#options.events.publish(event);
    if (this.#log === undefined || !(isDurableEvent(event) || event.type === 'tool.execution_start')) return;
    this.#log.append(
      recordedEvent(event, this.#options.deps.policy.logArguments),
      ahead && event.type === 'tool.execution_start',
    );
  }
}

/** A tool's log message is cut here: it is for a person watching, not a channel for output. */
const MAX_LOG_MESSAGE_CHARS = 2_000;

/** How long closing a session waits for tools still stopping (a command's kill step) before it lets go. */
const TOOL_STOP_PATIENCE_MS = 10_000;

async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function reasonOf(reason: unknown): string {
  if (reason instanceof Error) return reason.name === 'AbortError' ? 'aborted' : reason.message;
  return reason === undefined ? 'aborted' : String(reason);
}

/** Every capability request of the session names its deny rules, for backends that filter by them. */
function withSessionDenies(
  backends: CapabilityBackendRegistry,
  sessionDenies: readonly string[],
): CapabilityBackendRegistry {
  return {
    has: (capability) => backends.has(capability),
    resolve: (request) => backends.resolve({ ...request, sessionDenies }),
  };
}
