import { randomUUID } from 'node:crypto';
import { fail, ok, type RegisteredTool, type ToolCall, type ToolResult } from '@quiver/types';
import type { CallAbort } from './abort-links.js';
import type { Batch } from './batch.js';
import { trimResult } from './budget.js';
import { executeTool } from './execute-tool.js';
import { availabilityOf, gateRefusal } from './gates.js';
import { reduceResult } from './reduce-result.js';
import { validateArgs } from './validate-args.js';

/**
 * One call of `executeParallel`, in order: lookup, gates, availability, validation, dry run,
 * execute (capabilities, timeout, abort), reducer, budget. Rejects only on a bug, which the
 * batch maps.
 */
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
  // A tool outside the session's gates is not part of this session: not_available, as for an unknown tool.
  if (refusal !== undefined) return trimResult(fail('not_available', refusal), budget);

  const availability = availabilityOf(registered);
  if (!availability.available) {
    const reason = availability.reason ? `: ${availability.reason}` : '';
    return trimResult(fail('not_available', `Tool "${tool.name}" is not available${reason}`), budget);
  }

  const pendingValidation = validateArgs(tool.input, call.args, tool.name);
  // Awaiting only when zod had to go async keeps the common path free of extra microtasks.
  const validation = pendingValidation instanceof Promise ? await pendingValidation : pendingValidation;
  if (!validation.valid) return trimResult(fail('input_invalid', validation.message), budget);
  const args = validation.args;

  const effectiveBudget = Math.min(budget, maxResultChars(registered));
  if (ctx.dryRun === true) return trimResult(dryRunResult(tool.name, args), effectiveBudget);

  const callId = typeof call.id === 'string' && call.id.length > 0 ? call.id : randomUUID();
  const execution = {
    registered,
    args,
    callId,
    budget: effectiveBudget,
    timeoutMs: ctx.timeoutFor?.(tool, args),
  };
  const executed = await executeTool(execution, batch, abort);
  const reducers = ctx.reducers ?? batch.reducers;
  return trimResult(reduceResult(executed, reducers?.get(tool.name), tool.name, args), effectiveBudget);
}

/** The characters a tool's own `maxResultChars` allows; unlimited when it declares none. */
export function maxResultChars(registered: RegisteredTool): number {
  const max = registered.tool.maxResultChars;
  return typeof max === 'number' && max >= 0 ? max : Number.POSITIVE_INFINITY;
}

/** What a dry run answers instead of running the tool. */
export function dryRunResult(toolName: string, args: unknown): ToolResult {
  return ok(`[dry run] ${toolName} would run with ${describeArgs(args)}`);
}

function describeArgs(args: unknown): string {
  try {
    return JSON.stringify(args) ?? String(args);
  } catch {
    return String(args);
  }
}
