import { defineTool, fail, ok, type ToolContext } from '@quiver/types';
import { z } from 'zod';
import { openSandbox, type ReplSandbox, type RunOutcome } from './sandbox.js';
import { bridgeTo } from './tool-bridge.js';

export const REPL_TOOL_NAME = 'repl';

/** How long a script may run when the call has no timeout of its own. */
const DEFAULT_TIME_MS = 60_000;

const input = z.object({
  code: z
    .string()
    .max(100_000)
    .describe(
      'JavaScript to run. Top-level await works; top-level variables, functions and classes persist to later calls in this session. The value of the last expression is returned.',
    ),
  reset: z.boolean().optional().describe('Clear every variable of earlier calls before running the code.'),
});

export const replTool = defineTool({
  name: REPL_TOOL_NAME,
  title: 'Script tool calls',
  description: [
    'Run JavaScript in an isolated sandbox (QuickJS; no files, network or processes of its own) to combine several tool calls into one:',
    'read many files, filter and summarise in code, return only what matters.',
    'Tools are async functions on `tools`: `await tools.read_file({ path: "src/a.ts" })` resolves to the text the tool returns and throws a ToolError with the reason when it fails or is not permitted.',
    '`await tools.search("what you need")` finds more tools; `tools.call(name, args)` calls one by name; `console.log` prints.',
    'Every call inside is checked by the same permission rules as a direct call.',
  ].join(' '),
  input,
  capabilities: { tools: true },
  timeouts: { defaultMs: DEFAULT_TIME_MS, maxMs: 600_000 },
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  async execute(args, ctx) {
    const tools = ctx.capabilities.tools;
    if (!tools)
      return fail('not_available', 'The repl tool needs the session to grant it the tools capability.');
    return runExclusive(ctx, async () => {
      const sandbox = await sessionSandbox(ctx);
      if (args.reset) await sandbox.reset();
      const outcome = await sandbox.run({
        code: args.code,
        host: bridgeTo(tools, ctx.signal),
        deadline: Date.now() + (ctx.timeoutMs ?? DEFAULT_TIME_MS),
        signal: ctx.signal,
      });
      return render(outcome);
    });
  },
});

const SANDBOX_KEY = 'tools-repl:sandbox';
const QUEUE_KEY = 'tools-repl:queue';

async function sessionSandbox(ctx: ToolContext): Promise<ReplSandbox> {
  const existing = ctx.session.get<ReplSandbox>(SANDBOX_KEY);
  if (existing) return existing;
  const sandbox = await openSandbox();
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

function render(outcome: RunOutcome) {
  const printed = outcome.printed.length > 0 ? outcome.printed.replace(/\n?$/, '\n') : '';
  const dropped =
    outcome.droppedChars > 0 ? `[${outcome.droppedChars} more characters of printed output dropped]\n` : '';
  if (outcome.ok) {
    const text = `${printed}${dropped}${outcome.value}`.trimEnd();
    return ok(text.length > 0 ? text : '(no output)');
  }
  const lost = outcome.stateLost ? ' The sandbox was reset: variables of earlier calls are gone.' : '';
  return fail('execution_failed', `${printed}${dropped}${outcome.error}${lost}`.trim());
}
