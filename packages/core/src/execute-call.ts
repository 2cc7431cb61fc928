import { randomUUID } from 'node:crypto';
import {
  type CapabilityName,
  type ExecuteContext,
  type ExecutionInterceptor,
  fail,
  isToolResult,
  ok,
  type PreparedCall,
  type RegisteredTool,
  type ResolvedCapabilities,
  type ToolCall,
  type ToolContext,
  type ToolEmission,
  type ToolResult,
} from '@quiver/types';
import type { CallAbort } from './abort-links.js';
import type { Batch } from './batch.js';
import { trimResult } from './budget.js';
import { availabilityOf, gateRefusal, messageOf } from './gates.js';
import { reduceResult } from './reduce-result.js';
import { type RunToolOptions, runTool } from './run-tool.js';
import { validateArgs } from './validate-args.js';

const NO_CAPABILITIES: ResolvedCapabilities = Object.freeze({});

/** Runs steps 2–12 of the pipeline for one call. Rejects only on a bug, which the caller maps. */
export async function executeCall(
  call: ToolCall,
  registered: RegisteredTool | undefined,
  batch: Batch,
  abort: CallAbort,
): Promise<ToolResult> {
  const budget = batch.perCallBudget;
  if (registered === undefined)
    return trimResult(fail('not_available', `Unknown tool: ${String(call?.name)}`), budget);
  const { tool } = registered;
  const { ctx } = batch;

  const refusal = gateRefusal(registered, batch.allowedTools, batch.filterOpts);
  if (refusal !== undefined) return trimResult(fail('not_permitted', refusal), budget);

  const availability = availabilityOf(registered);
  if (!availability.available) {
    const reason = availability.reason ? `: ${availability.reason}` : '';
    return trimResult(fail('not_available', `Tool "${tool.name}" is not available${reason}`), budget);
  }

  const capabilities = declaredCapabilities(registered);
  for (const capability of capabilities) {
    if (ctx.backends?.has(capability) !== true) {
      return trimResult(
        fail(
          'not_available',
          `Tool "${tool.name}" needs the "${capability}" capability, which has no backend here`,
        ),
        budget,
      );
    }
  }

  const pendingValidation = validateArgs(tool.input, call.args, tool.name);
  // Awaiting only when zod had to go async keeps the common path free of extra microtasks.
  const validation = pendingValidation instanceof Promise ? await pendingValidation : pendingValidation;
  if (!validation.valid) return trimResult(fail('input_invalid', validation.message), budget);
  let args = validation.args;
  const callId = typeof call.id === 'string' && call.id.length > 0 ? call.id : randomUUID();

  const interceptor = ctx.interceptor;
  let prepared: PreparedCall | undefined;
  if (interceptor?.beforeExecute !== undefined || interceptor?.afterExecute !== undefined) {
    prepared = {
      callId,
      toolName: tool.name,
      args,
      sessionId: ctx.sessionId,
      personalityId: ctx.personalityId,
      agentId: ctx.agent.id,
      turn: ctx.turn,
      tool,
      pluginId: registered.pluginId,
      get signal() {
        return ctx.signal ?? abort.signal;
      },
    };
    if (interceptor.beforeExecute !== undefined) {
      const intercepted = await intercept(interceptor, prepared, registered);
      if ('result' in intercepted) return trimResult(intercepted.result, budget);
      if ('invalid' in intercepted) {
        return finish(
          fail('input_invalid', intercepted.invalid),
          Math.min(budget, maxChars(registered)),
          interceptor,
          prepared,
          0,
        );
      }
      args = intercepted.args;
      prepared.args = args;
    }
  }

  const effectiveBudget = Math.min(budget, maxChars(registered));
  if (ctx.dryRun === true) {
    return finish(
      ok(`[dry run] ${tool.name} would run with ${describeArgs(args)}`),
      effectiveBudget,
      interceptor,
      prepared,
      0,
    );
  }

  let handles: ResolvedCapabilities = NO_CAPABILITIES;
  try {
    if (capabilities.length > 0) handles = await resolveCapabilities(registered, capabilities, ctx);
  } catch (error) {
    const failure = fail(
      'not_available',
      `Tool "${tool.name}" could not get its capabilities: ${messageOf(error)}`,
    );
    return finish(failure, effectiveBudget, interceptor, prepared, 0);
  }

  const startedAt = prepared === undefined ? 0 : performance.now();
  const emit = ctx.emit;
  const running: RunToolOptions = { parentSignal: ctx.signal, track: ctx.track };
  const toolContext: ToolContext = {
    callId,
    sessionId: ctx.sessionId,
    personalityId: ctx.personalityId,
    agent: ctx.agent,
    turn: ctx.turn,
    get signal() {
      return abort.signal;
    },
    emit: (emission: ToolEmission) => {
      if (emission?.type === 'progress') running.backstop?.progress();
      if (emit !== undefined) safeEmit(emit, callId, emission);
    },
    budget: effectiveBudget,
    dryRun: false,
    timeoutMs: ctx.timeoutFor?.(tool, args),
    capabilities: handles,
    attachments: batch.attachments,
    session: batch.session,
  };
  const executed = await runTool(tool, args, toolContext, abort, running);
  const reducers = ctx.reducers ?? batch.reducers;
  const reduced = reduceResult(executed, reducers?.get(tool.name), tool.name, args);
  if (prepared === undefined) return trimResult(reduced, effectiveBudget);
  return finish(reduced, effectiveBudget, interceptor, prepared, performance.now() - startedAt);
}

function safeEmit(emit: NonNullable<ExecuteContext['emit']>, callId: string, emission: ToolEmission): void {
  try {
    emit(callId, emission);
  } catch {
    // A broken listener must not fail the tool that reported progress.
  }
}

function maxChars(registered: RegisteredTool): number {
  const max = registered.tool.maxResultChars;
  return typeof max === 'number' && max >= 0 ? max : Number.POSITIVE_INFINITY;
}

function declaredCapabilities(registered: RegisteredTool): CapabilityName[] {
  const declarations = registered.tool.capabilities;
  if (declarations === undefined || declarations === null) return [];
  const names: CapabilityName[] = [];
  for (const name in declarations) {
    if (declarations[name as CapabilityName] !== undefined) names.push(name as CapabilityName);
  }
  return names;
}

async function resolveCapabilities(
  registered: RegisteredTool,
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

type Interception = { args: unknown } | { result: ToolResult } | { invalid: string };

/** A throwing interceptor or an answer it should not give refuses the call: it fails closed. */
async function intercept(
  interceptor: ExecutionInterceptor,
  prepared: PreparedCall,
  registered: RegisteredTool,
): Promise<Interception> {
  const name = registered.tool.name;
  let decision: unknown;
  try {
    decision = await interceptor.beforeExecute?.(prepared);
  } catch (error) {
    return {
      result: fail(
        'not_permitted',
        `Tool "${name}" was refused because the interceptor failed: ${messageOf(error)}`,
      ),
    };
  }
  if (typeof decision === 'object' && decision !== null) {
    const answer = decision as { action?: unknown; args?: unknown; result?: unknown };
    if (answer.action === 'result' && isToolResult(answer.result)) return { result: answer.result };
    if (answer.action === 'continue') {
      if (answer.args === undefined) return { args: prepared.args };
      const validation = await validateArgs(registered.tool.input, answer.args, name);
      return validation.valid
        ? { args: validation.args }
        : { invalid: `${validation.message} (rewritten before execution)` };
    }
  }
  return {
    result: fail('not_permitted', `Tool "${name}" was refused: the interceptor gave no valid decision`),
  };
}

/** Trims, then lets the interceptor see the final result; a throwing `afterExecute` keeps it. */
async function finish(
  result: ToolResult,
  budget: number,
  interceptor: ExecutionInterceptor | undefined,
  prepared: PreparedCall | undefined,
  durationMs: number,
): Promise<ToolResult> {
  const trimmed = trimResult(result, budget);
  if (interceptor?.afterExecute === undefined || prepared === undefined) return trimmed;
  try {
    const after = await interceptor.afterExecute(prepared, trimmed, { durationMs });
    return isToolResult(after) ? after : trimmed;
  } catch {
    return trimmed;
  }
}

function describeArgs(args: unknown): string {
  try {
    return JSON.stringify(args) ?? String(args);
  } catch {
    return String(args);
  }
}
