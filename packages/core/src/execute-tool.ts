import {
  type Attachment,
  type CapabilityName,
  fail,
  type RegisteredTool,
  type ResolvedCapabilities,
  type SessionState,
  type ToolContext,
  type ToolEmission,
  type ToolResult,
} from '@quiver/types';
import type { CallAbort } from './abort-links.js';
import type { ExecuteContext } from './execute-context.js';
import { messageOf } from './gates.js';
import { type RunToolOptions, runTool } from './run-tool.js';

const NO_CAPABILITIES: ResolvedCapabilities = Object.freeze({});

/** The tool a call runs and the plugin it belongs to (a registry entry or a session's own tool). */
export type ToolTarget = Pick<RegisteredTool, 'tool' | 'pluginId'>;

/** A checked call, ready to run: its tool, its validated arguments and what the tool is told. */
export interface ToolExecution {
  registered: ToolTarget;
  args: unknown;
  callId: string;
  /** The characters the tool is told it may return (`ctx.budget`). */
  budget: number;
  timeoutMs: number | undefined;
}

/** What the calls of one batch (or the runner's one call) share with the tool. */
export interface CallScope {
  readonly ctx: ExecuteContext;
  readonly attachments: readonly Attachment[];
  readonly session: SessionState;
}

/**
 * Resolves the tool's capabilities (failing closed when one has no backend) and runs it under
 * its timeout and the batch's abort. The result is the tool's own, snapshotted, neither reduced
 * nor trimmed. Rejects only on a bug, which the batch maps.
 */
export async function executeTool(
  execution: ToolExecution,
  batch: CallScope,
  abort: CallAbort,
): Promise<ToolResult> {
  const { registered, callId } = execution;
  const { tool } = registered;
  const { ctx } = batch;
  const capabilities = declaredCapabilities(registered);
  for (const capability of capabilities) {
    if (ctx.backends?.has(capability) !== true) {
      return fail(
        'not_available',
        `Tool "${tool.name}" needs the "${capability}" capability, which has no backend here`,
      );
    }
  }
  let handles: ResolvedCapabilities = NO_CAPABILITIES;
  try {
    if (capabilities.length > 0) handles = await resolveCapabilities(registered, capabilities, ctx);
  } catch (error) {
    return fail('not_available', `Tool "${tool.name}" could not get its capabilities: ${messageOf(error)}`);
  }

  const running: RunToolOptions = { parentSignal: ctx.signal, track: ctx.track };
  const toolContext = new CallContext(execution, ctx, batch, handles, abort, running);
  return runTool(tool, execution.args, toolContext, abort, running);
}

/**
 * What a tool is told of its call. Not an object literal: a literal with a getter of its own (the
 * lazily created `signal`) makes a slow object per call, and every later read of it is slow too.
 * `signal` stays an enumerable property of its own (a tool may spread its context), through one
 * shared getter; `emit` and `onAbort` are bound, as a tool may take them off the context.
 */
class CallContext implements ToolContext {
  static readonly #signal: PropertyDescriptor = {
    get(this: CallContext): AbortSignal {
      return this.#abort.signal;
    },
    enumerable: true,
    configurable: true,
  };

  readonly callId: string;
  readonly sessionId: string;
  readonly personalityId: string;
  readonly agent: ToolContext['agent'];
  readonly turn: number;
  declare readonly signal: AbortSignal;
  readonly onAbort: (listener: (reason: unknown) => void) => () => void;
  readonly emit: (emission: ToolEmission) => void;
  readonly budget: number;
  readonly dryRun = false;
  readonly timeoutMs: number | undefined;
  readonly capabilities: ResolvedCapabilities;
  readonly attachments: readonly Attachment[];
  readonly session: SessionState;
  readonly #abort: CallAbort;

  constructor(
    execution: ToolExecution,
    ctx: ExecuteContext,
    batch: CallScope,
    capabilities: ResolvedCapabilities,
    abort: CallAbort,
    running: RunToolOptions,
  ) {
    const callId = execution.callId;
    this.callId = callId;
    this.sessionId = ctx.sessionId;
    this.personalityId = ctx.personalityId;
    this.agent = ctx.agent;
    this.turn = ctx.turn;
    this.#abort = abort;
    Object.defineProperty(this, 'signal', CallContext.#signal);
    this.onAbort = (listener) => abort.onAbort(listener);
    const emit = ctx.emit;
    this.emit = (emission) => {
      if (emission?.type === 'progress') running.backstop?.progress();
      if (emit !== undefined) safeEmit(emit, callId, emission);
    };
    this.budget = execution.budget;
    this.timeoutMs = execution.timeoutMs;
    this.capabilities = capabilities;
    this.attachments = batch.attachments;
    this.session = batch.session;
  }
}

function safeEmit(emit: NonNullable<ExecuteContext['emit']>, callId: string, emission: ToolEmission): void {
  try {
    emit(callId, emission);
  } catch {
    // A broken listener must not fail the tool that reported progress.
  }
}

function declaredCapabilities(registered: ToolTarget): CapabilityName[] {
  const declarations = registered.tool.capabilities;
  if (declarations === undefined || declarations === null) return [];
  const names: CapabilityName[] = [];
  for (const name in declarations) {
    if (declarations[name as CapabilityName] !== undefined) names.push(name as CapabilityName);
  }
  return names;
}

async function resolveCapabilities(
  registered: ToolTarget,
  capabilities: readonly CapabilityName[],
  ctx: ExecuteContext,
): Promise<ResolvedCapabilities> {
  const handles: Record<string, unknown> = {};
  if (capabilities.length === 0 || ctx.backends === undefined) return handles;
  const backends = ctx.backends;
  await Promise.all(
    capabilities.map(async (capability) => {
      const declaration = registered.tool.capabilities[capability];
      if (declaration === undefined) return;
      try {
        handles[capability] = await backends.resolve({
          capability,
          declaration,
          toolName: registered.tool.name,
          pluginId: registered.pluginId,
          sessionId: ctx.sessionId,
          personalityId: ctx.personalityId,
          agentId: ctx.agent.id,
        });
      } catch (error) {
        throw new Error(`the "${capability}" backend failed: ${messageOf(error)}`);
      }
    }),
  );
  return handles;
}
