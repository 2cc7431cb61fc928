import type { ExternalToolDefinition } from '@quiver/runtime';
import {
  type Attachment,
  errorMessage,
  fail,
  ok,
  type ToolAnnotations,
  type ToolEmission,
  type ToolErrorCode,
  type ToolResult,
} from '@quiver/types';
import { CancellationTokenSource, type MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import { type externalToolDefinition, type externalToolProgress, externalToolReply } from './protocol.js';

const DEFAULT_TIMEOUT_MS = 120_000;

const TOOL_ERROR_CODES = new Set<ToolErrorCode>([
  'input_invalid',
  'not_available',
  'not_permitted',
  'execution_failed',
  'aborted',
  'timeout',
  'stale_write',
  'path_outside_workspace',
  'not_found',
  'conflict',
  'limit_exceeded',
  'interrupted',
]);

/**
 * External tools whose calls the client runs: the pipeline has already gated, validated,
 * permission-checked and hooked the call; here it becomes an `external_tool.requested` request,
 * and the reply becomes the result (then reduced, budgeted and logged like any other). A call
 * the client does not answer in time fails `timeout`; an aborted one cancels the request.
 */
export function clientExecutedTools(
  definitions: readonly z.infer<typeof externalToolDefinition>[],
  connection: MessageConnection,
  sessionId: string,
  running: RunningClientCalls,
): ExternalToolDefinition[] {
  return definitions.map((definition) => {
    const { timeoutMs = DEFAULT_TIMEOUT_MS, annotations, ...rest } = definition;
    return {
      ...rest,
      ...(annotations ? { annotations: annotations as ToolAnnotations } : {}),
      execute: async (args, ctx) => {
        const key = runningKey(sessionId, ctx.callId);
        running.set(key, ctx.emit);
        try {
          return await requestExecution(
            connection,
            { sessionId, callId: ctx.callId, toolName: definition.name, args },
            { signal: ctx.signal, timeoutMs },
          );
        } finally {
          running.delete(key);
        }
      },
    };
  });
}

/** The calls the client is running now, by session and call id: where their progress goes. */
export type RunningClientCalls = Map<string, (emission: ToolEmission) => void>;

export const runningKey = (sessionId: string, callId: string) => JSON.stringify([sessionId, callId]);

/** `external_tool.progress`: progress and output so far of a running call; dropped once it ended. */
export function reportClientProgress(
  running: RunningClientCalls,
  progress: z.infer<typeof externalToolProgress>,
): void {
  const emit = running.get(runningKey(progress.sessionId, progress.callId));
  if (emit === undefined) return;
  if (progress.partial !== undefined) emit({ type: 'partial', text: progress.partial });
  if (progress.progress !== undefined)
    emit({
      type: 'progress',
      progress: progress.progress,
      ...(progress.total === undefined ? {} : { total: progress.total }),
      ...(progress.message === undefined ? {} : { message: progress.message }),
    });
  else if (progress.message !== undefined) emit({ type: 'log', level: 'info', message: progress.message });
}

async function requestExecution(
  connection: MessageConnection,
  call: { sessionId: string; callId: string; toolName: string; args: unknown },
  limits: { signal: AbortSignal; timeoutMs: number },
): Promise<ToolResult> {
  if (limits.signal.aborted) return fail('aborted', `${call.toolName} was aborted before the client ran it.`);
  const cancellation = new CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<ToolResult>((resolve) => {
    const onAbort = () => {
      cancellation.cancel();
      resolve(fail('aborted', `${call.toolName} was aborted; the client was asked to cancel it.`));
    };
    limits.signal.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => {
      cancellation.cancel();
      resolve(
        fail(
          'timeout',
          `The client did not answer ${call.toolName} within ${limits.timeoutMs} ms. Give the tool a larger timeoutMs in its definition if it needs longer.`,
        ),
      );
    }, limits.timeoutMs);
  });
  const answered = connection
    .sendRequest(
      'external_tool.requested',
      { sessionId: call.sessionId, callId: call.callId, toolName: call.toolName, arguments: call.args ?? {} },
      cancellation.token,
    )
    .then(
      (reply) => fromReply(call.toolName, reply),
      (error: unknown) =>
        fail('execution_failed', `The client failed to run ${call.toolName}: ${errorMessage(error)}`),
    );
  try {
    return await Promise.race([answered, stopped]);
  } finally {
    clearTimeout(timer);
    cancellation.dispose();
  }
}

function fromReply(toolName: string, reply: unknown): ToolResult {
  const parsed = externalToolReply.safeParse(reply);
  if (!parsed.success)
    return fail(
      'execution_failed',
      `The client's reply for ${toolName} is not a tool result: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`).join('; ')}. Reply {"ok":true,"value":"…"} or {"ok":false,"error":"…"}.`,
    );
  const result = parsed.data;
  if (result.ok)
    return ok(result.value, {
      ...(result.structured === undefined ? {} : { structured: result.structured }),
      ...(result.attachments === undefined ? {} : { attachments: result.attachments as Attachment[] }),
    });
  const code = TOOL_ERROR_CODES.has(result.code as ToolErrorCode)
    ? (result.code as ToolErrorCode)
    : 'execution_failed';
  return fail(code, result.error);
}
