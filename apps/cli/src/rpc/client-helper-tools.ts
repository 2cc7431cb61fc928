import {
  type AskUserAnswer,
  type ExternalToolDefinition,
  type HarnessCapabilities,
  harnessTools,
  type PlanVerdict,
} from '@quiver/runtime';
import type { ModelQuestion } from '@quiver/types';
import { createWorktreeHelpers, type Quiver } from '@quiver/wiring';
import { CancellationTokenSource, type MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { helperReply, type helperRequested, type helperToolsDeclaration } from './protocol.js';

type HelperName = z.infer<typeof helperRequested>['helper'];
type HelperReply = z.infer<typeof helperReply>;

/**
 * The helper tools an rpc client declared for a session, each routed back to it as a
 * `helper.requested` request (cancelled when the call is aborted). Worktrees are the exception:
 * git writes under `.git`, so Quiver runs it here with the terminal's hardening, and the client
 * learns the path from the result.
 */
export function clientHelperTools(
  declared: z.infer<typeof helperToolsDeclaration> | undefined,
  quiver: Quiver,
  connection: MessageConnection,
  sessionId: string,
): ExternalToolDefinition[] {
  if (declared === undefined) return [];
  const ask = (
    helper: HelperName,
    args: Record<string, unknown>,
    signal: AbortSignal,
    question?: ModelQuestion,
  ) =>
    requestHelper(
      connection,
      { sessionId, helper, arguments: args, ...(question === undefined ? {} : { question }) },
      signal,
    );
  const capabilities: HarnessCapabilities = {};
  if (declared.askUser)
    capabilities.askUser = async ({ shown, ...question }, signal): Promise<AskUserAnswer> => {
      const reply = await ask('ask_user', { ...question }, signal, shown);
      if (reply.declined === true || reply.answer === undefined)
        return { declined: true, ...(reply.reason === undefined ? {} : { reason: reply.reason }) };
      return { answer: reply.answer };
    };
  if (declared.taskComplete)
    capabilities.taskComplete = async (report, signal) => {
      await ask('task_complete', { ...report }, signal);
    };
  if (declared.exitPlanMode)
    capabilities.exitPlanMode = async ({ shown, ...plan }, signal): Promise<PlanVerdict> => {
      const reply = await ask('exit_plan_mode', { ...plan }, signal, shown);
      return {
        approved: reply.approved === true,
        ...(reply.feedback === undefined ? {} : { feedback: reply.feedback }),
      };
    };
  if (declared.structuredOutput)
    capabilities.structuredOutput = {
      schema: declared.structuredOutput.schema,
      deliver: async (value, signal) => {
        await ask('structured_output', value, signal);
      },
    };
  if (declared.worktrees)
    capabilities.worktrees = createWorktreeHelpers({
      root: quiver.host.workspace,
      dataDir: quiver.host.dataDir,
    });
  return harnessTools(capabilities);
}

async function requestHelper(
  connection: MessageConnection,
  params: z.infer<typeof helperRequested>,
  signal: AbortSignal,
): Promise<HelperReply> {
  if (signal.aborted) throw new Error(`${params.helper} was aborted before the client answered.`);
  const cancellation = new CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const reply = await connection.sendRequest('helper.requested', params, cancellation.token);
    const parsed = helperReply.safeParse(reply ?? {});
    if (!parsed.success)
      throw new Error(
        `The client's reply to ${params.helper} is not a helper reply: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`)
          .join('; ')}. Reply {"answer":"…"}, {"declined":true}, {"approved":true} or {}.`,
      );
    return parsed.data;
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancellation.dispose();
  }
}

/** An external tool named like a declared helper would shadow it: an error saying which. */
export function helperNameClashes(
  externalTools: readonly { name: string }[] | undefined,
  helperTools: readonly ExternalToolDefinition[],
): string | undefined {
  const helpers = new Set(helperTools.map((tool) => tool.name));
  const clashes = (externalTools ?? []).map((tool) => tool.name).filter((name) => helpers.has(name));
  if (clashes.length === 0) return undefined;
  return `externalTools names ${clashes.map((name) => `"${name}"`).join(', ')}, which helperTools also declares. Keep one: drop the external tool to let Quiver route the helper as helper.requested, or drop it from helperTools.`;
}
