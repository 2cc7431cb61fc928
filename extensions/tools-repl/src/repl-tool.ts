import { defineTool, fail, ok, type Tool, type ToolContext } from '@quiver/types';
import { z } from 'zod';
import {
  DEFAULT_SANDBOX_LIMITS,
  openSandbox,
  type ReplSandbox,
  type RunFailureReason,
  type RunOutcome,
} from './sandbox.js';
import { describeCut, shrinkValue } from './shrink-value.js';
import { bridgeTo } from './tool-bridge.js';

export const REPL_TOOL_NAME = 'repl';

/** The limits a script runs under, from the plugin's settings (`limits`). */
export interface ReplLimits {
  /** Seconds a script may run, waiting on tools included. */
  timeSeconds: number;
  /** Megabytes of heap a script may use. */
  memoryMb: number;
}

export const DEFAULT_REPL_LIMITS: ReplLimits = { timeSeconds: 60, memoryMb: 64 };

/** Where a user raises the limits; named in the errors that hit them. */
const RAISE_HINT =
  "raise it with `limits` in the tools-repl settings (quiver.yaml `pluginConfig.tools-repl.limits`, or the personality's `plugins: [{ id: tools-repl, config: { limits: … } }]`)";

const input = z.object({
  code: z
    .string()
    .max(100_000)
    .describe(
      'JavaScript to run. Top-level await works; top-level variables, functions and classes persist to later calls in this session. The value of the last expression is returned.',
    ),
  reset: z.boolean().optional().describe('Clear every variable of earlier calls before running the code.'),
});

const DESCRIPTION = [
  'Run JavaScript in an isolated sandbox (QuickJS in a thread of its own; no files, network or processes of its own) to combine several tool calls into one:',
  'read many files, filter and summarise in code, return only what matters.',
  'Tools are async functions on `tools`: `await tools.read_file({ path: "src/a.ts" })` resolves to the tool\'s structured result when it has one (its text otherwise; `tools.call(name, args, { text: true })` gives the text) and throws a ToolError with `code` and the reason when it fails or is not permitted.',
  'Names that are not identifiers are reached as `tools["get-weather"](…)` or camel-cased (`tools.getWeather(…)`).',
  '`await tools.search("what you need")` finds more tools; `tools.call(name, args)` calls one by name; `console.log` prints; `setTimeout`/`setInterval` work within the time limit.',
  'Every call inside is checked by the same permission rules as a direct call.',
].join(' ');

type ReplInput = typeof input;

/** The repl tool under the given limits. */
export function createReplTool(limits: ReplLimits = DEFAULT_REPL_LIMITS): Tool<ReplInput> {
  const timeMs = limits.timeSeconds * 1_000;
  const sandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: limits.memoryMb * 1_048_576 };
  return defineTool({
    name: REPL_TOOL_NAME,
    title: 'Script tool calls',
    description: DESCRIPTION,
    input,
    capabilities: { tools: true },
    // The script's own limit ends it first, with an error that says which limit it hit.
    timeouts: { defaultMs: timeMs + 5_000, maxMs: Math.max(600_000, timeMs + 5_000) },
    annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    async execute(args, ctx) {
      const tools = ctx.capabilities.tools;
      if (!tools)
        return fail('not_available', 'The repl tool needs the session to grant it the tools capability.');
      return runExclusive(ctx, async () => {
        const sandbox = await sessionSandbox(ctx, sandboxLimits);
        if (args.reset) await sandbox.reset();
        const callLimit = ctx.timeoutMs !== undefined && ctx.timeoutMs < timeMs ? ctx.timeoutMs : undefined;
        // The script's calls stop with the call, and with a script that lost its sandbox (a
        // time or memory failure): nothing can take their answers any more, and a tool must
        // not go on changing things after the person was told the script stopped.
        const calls = new AbortController();
        const stopCalls = () => calls.abort(ctx.signal.reason);
        if (ctx.signal.aborted) stopCalls();
        else ctx.signal.addEventListener('abort', stopCalls, { once: true });
        const outcome = await sandbox.run({
          code: args.code,
          host: bridgeTo(tools, calls.signal),
          deadline: Date.now() + (callLimit ?? timeMs),
          signal: ctx.signal,
        });
        if (!outcome.ok && outcome.stateLost)
          calls.abort(new Error(`the script stopped (${outcome.reason}) before its calls finished`));
        return render(outcome, { limits, callLimit, budget: ctx.budget });
      });
    },
  });
}

export const replTool = createReplTool();

const SANDBOX_KEY = 'tools-repl:sandbox';
const QUEUE_KEY = 'tools-repl:queue';

async function sessionSandbox(ctx: ToolContext, limits: typeof DEFAULT_SANDBOX_LIMITS): Promise<ReplSandbox> {
  const existing = ctx.session.get<ReplSandbox>(SANDBOX_KEY);
  if (existing) return existing;
  const sandbox = await openSandbox(limits);
  ctx.session.set(SANDBOX_KEY, sandbox, (owned) => owned.dispose());
  return sandbox;
}

/** Scripts of one session run one after another: they share its variables. */
function runExclusive<T>(ctx: ToolContext, work: () => Promise<T>): Promise<T> {
  const previous = ctx.session.get<Promise<unknown>>(QUEUE_KEY) ?? Promise.resolve();
  const next = previous.then(work, work);
  ctx.session.set(
    QUEUE_KEY,
    next.catch(() => {}),
  );
  return next;
}

interface RenderContext {
  limits: ReplLimits;
  callLimit: number | undefined;
  budget: number;
}

const FRESH_WARNING =
  '[This sandbox started empty: variables of scripts run before it started (in another process, or before the sandbox was reset) are not kept. Define them again.]';

function render(outcome: RunOutcome, context: RenderContext) {
  const printed = outcome.printed.length > 0 ? outcome.printed.replace(/\n?$/, '\n') : '';
  const dropped =
    outcome.droppedChars > 0 ? `[${outcome.droppedChars} more characters of printed output dropped]\n` : '';
  if (outcome.ok) {
    const room = Math.max(context.budget - printed.length - dropped.length - 400, 2_000);
    const text = `${printed}${dropped}${shown(outcome, room)}`.trimEnd();
    return ok(text.length > 0 ? text : '(no output)');
  }
  const lost = outcome.stateLost ? ' The sandbox was reset: variables of earlier calls are gone.' : '';
  const missing = outcome.fresh && /^ReferenceError: /.test(outcome.error) ? `\n${FRESH_WARNING}` : '';
  return fail(
    outcome.reason === 'aborted' ? 'aborted' : outcome.reason === 'time' ? 'timeout' : 'execution_failed',
    `${printed}${dropped}${failure(outcome.reason, outcome.error, context)}${lost}${missing}`.trim(),
  );
}

function failure(reason: RunFailureReason, error: string, context: RenderContext): string {
  switch (reason) {
    case 'time':
      return context.callLimit !== undefined
        ? `The script ran past this call's timeout of ${seconds(context.callLimit)} (${error}); give the call a longer timeout.`
        : `The script ran past its time limit of ${context.limits.timeSeconds} s (${error}); ${RAISE_HINT}.`;
    case 'memory':
      return `The script ran out of memory (limit ${context.limits.memoryMb} MB); ${RAISE_HINT}.`;
    case 'aborted':
      return 'The call was aborted; the script was stopped.';
    default:
      return error;
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The script's result within `room`, its structure kept. */
function shown(outcome: Extract<RunOutcome, { ok: true }>, room: number): string {
  if (outcome.value.length <= room) return outcome.value;
  const shrunk = shrinkValue('data' in outcome ? outcome.data : outcome.value, room);
  return shrunk.cut ? `${describeCut(shrunk.cut, room)}\n${shrunk.text}` : shrunk.text;
}
