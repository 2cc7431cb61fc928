import { fail, ok, type PluginContext, type ToolContext, type ToolResult } from '@quiver/types';
import { z } from 'zod';

/** Waits `ms` or until the call is aborted; says which. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<'slept' | 'aborted'>((resolve) => {
    if (signal.aborted) return resolve('aborted');
    const timer = setTimeout(() => resolve('slept'), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve('aborted');
      },
      { once: true },
    );
  });

/**
 * The tools the conformance suite's tasks-extension scenarios call: `greet` answers inside its
 * request, `slow_compute` becomes a task when slow, `failing_job` and `protocol_error_job` run
 * only as tasks.
 */
export function registerTaskTools(ctx: PluginContext): void {
  const tool = (
    name: string,
    description: string,
    taskSupport: 'forbidden' | 'optional' | 'required',
    input: z.ZodObject,
    execute: (args: Record<string, unknown>, context: ToolContext) => Promise<ToolResult> | ToolResult,
  ) =>
    ctx.registerTool({
      name,
      description,
      input,
      capabilities: { client_relay: true },
      taskSupport,
      annotations: { readOnly: true, openWorld: false },
      execute: execute as never,
    });

  tool(
    'greet',
    'Greets someone by name (answers inside its request)',
    'forbidden',
    z.object({ name: z.string() }),
    (args) => ok(`Hello, ${String(args.name)}!`),
  );
  tool(
    'slow_compute',
    'Sleeps `seconds` seconds, then answers (a task when slow)',
    'optional',
    z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
    async (args, context) => {
      const seconds = Number(args.seconds);
      if ((await sleep(seconds * 1000, context.signal)) === 'aborted')
        return fail('aborted', `slow_compute ${String(args.label ?? '')} was cancelled`);
      return ok(`Computed ${String(args.label ?? 'result')} after ${seconds} s`);
    },
  );
  tool(
    'failing_job',
    'Fails as a tool after about a second (runs only as a task)',
    'required',
    z.object({}),
    async (_args, context) => {
      await sleep(1000, context.signal);
      return fail('execution_failed', 'failing_job failed, as it always does');
    },
  );
  tool(
    'protocol_error_job',
    'Fails as the server would when it cannot carry out a call (runs only as a task)',
    'required',
    z.object({}),
    async (_args, context) => {
      await sleep(200, context.signal);
      return fail('storage_unavailable', 'protocol_error_job: the server could not carry out the call');
    },
  );
  tool(
    'confirm_delete',
    'Asks its caller to confirm deleting `filename` after a moment, as a task (deletes nothing)',
    'optional',
    z.object({ filename: z.string() }),
    async (args, context) => {
      const relay = context.capabilities.client_relay;
      if (!relay) return fail('not_available', 'this session has no client to ask');
      // Looking the file up takes a moment: by then the call is a task, which waits for the answer.
      if ((await sleep(800, context.signal)) === 'aborted')
        return fail('aborted', 'confirm_delete was cancelled');
      const answer = await relay.elicit(
        {
          callId: context.callId,
          toolName: 'confirm_delete',
          params: {
            mode: 'form',
            message: `Delete ${String(args.filename)}?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean' } },
              required: ['confirm'],
            },
          },
        },
        context.signal,
      );
      if (answer.action === 'refused') return fail('not_available', answer.reason);
      const confirmed =
        answer.action === 'accept' && (answer.content as { confirm?: unknown } | undefined)?.confirm === true;
      return ok(
        confirmed ? `Deleted ${String(args.filename)} (nothing was deleted: a fixture)` : 'Not deleted',
      );
    },
  );
  tool(
    'test_tool_with_task',
    'Asks its caller for a name (input-required rounds), then greets it as a task',
    'required',
    z.object({}),
    async (_args, context) => {
      const relay = context.capabilities.client_relay;
      if (!relay) return fail('not_available', 'this session has no client to ask');
      const answer = await relay.elicit(
        {
          callId: context.callId,
          toolName: 'test_tool_with_task',
          key: 'user_name',
          params: {
            mode: 'form',
            message: 'What is your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        context.signal,
      );
      if (answer.action !== 'accept')
        return fail(
          'not_available',
          'reason' in answer ? answer.reason : `the caller answered ${answer.action}`,
        );
      await sleep(300, context.signal);
      return ok(`Hello, ${String(answer.content?.name)}!`);
    },
  );
  tool(
    'multi_input',
    'Asks its caller two questions at once after a moment, as a task',
    'optional',
    z.object({}),
    async (_args, context) => {
      const relay = context.capabilities.client_relay;
      if (!relay) return fail('not_available', 'this session has no client to ask');
      if ((await sleep(800, context.signal)) === 'aborted')
        return fail('aborted', 'multi_input was cancelled');
      const question = (key: string) =>
        relay.elicit(
          {
            callId: context.callId,
            toolName: 'multi_input',
            key,
            params: {
              mode: 'form',
              message: `Answer ${key}`,
              requestedSchema: {
                type: 'object',
                properties: { name: { type: 'string' } },
                required: ['name'],
              },
            },
          },
          context.signal,
        );
      const answers = await Promise.all([question('first'), question('second')]);
      const refused = answers.find((answer) => answer.action === 'refused');
      if (refused && 'reason' in refused) return fail('not_available', refused.reason);
      return ok(
        `Answers: ${answers.map((answer) => JSON.stringify('content' in answer ? answer.content : {})).join(', ')}`,
      );
    },
  );
}
