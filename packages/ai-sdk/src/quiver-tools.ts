import {
  resultText,
  type SessionTool,
  type SessionToolsOptions,
  type SessionToolsWatch,
  sessionTools,
  type ToolResult,
  type ToolSession,
  watchSessionTools,
} from '@quiver/client';
import { jsonSchema, type Tool, type ToolSet, tool } from 'ai';

/**
 * `only` keeps the named tools; `approval` says who answers Quiver's asks: the AI SDK's tool
 * approval (default: a call Quiver would ask about comes back as a `tool-approval-request`, and
 * the approved call runs with a once grant, or a session grant with `approvalScope: 'session'`)
 * or, with `'quiver'`, the session's own resolver.
 */
export type QuiverToolsOptions = SessionToolsOptions;

/**
 * The tools of a Quiver session as an AI SDK `ToolSet` for `generateText` / `streamText`. Each
 * call the model makes runs through Quiver's pipeline (permissions, with asks relayed to the AI
 * SDK's tool approval as `needsApproval`; hooks; reducers; the log), keyed by the AI SDK's tool call id and aborted
 * with its abort signal. A failure reaches the model as text ("Error (code): …"); images and
 * other attachments reach it as media content.
 */
export async function quiverTools(session: ToolSession, options: QuiverToolsOptions = {}): Promise<ToolSet> {
  const tools: ToolSet = {};
  for (const entry of await sessionTools(session, options)) tools[entry.name] = aiSdkTool(entry);
  return tools;
}

/**
 * `quiverTools` kept current: `tools` is one `ToolSet` object that is updated in place on every
 * `session.tools_updated` (an MCP server connecting, tools `tool_search` made visible), so the
 * next step of a running `generateText` / `streamText` sees the new definitions. `stop()` ends
 * the watching.
 */
export async function liveQuiverTools(
  session: ToolSession,
  options: QuiverToolsOptions = {},
): Promise<{ tools: ToolSet; stop(): void }> {
  const tools: ToolSet = {};
  let watch: SessionToolsWatch | undefined;
  // A call that changed the tools returns once they are re-rendered: the next step sees them.
  const afterCall = () => watch?.settled() ?? Promise.resolve();
  watch = await watchSessionTools(session, options, (entries) => {
    for (const name of Object.keys(tools)) delete tools[name];
    for (const entry of entries) tools[entry.name] = aiSdkTool(entry, afterCall);
  });
  return { tools, stop: watch.stop };
}

function aiSdkTool(entry: SessionTool, afterCall?: () => Promise<void>): Tool {
  return tool<unknown, ToolResult>({
    description: entry.description,
    inputSchema: jsonSchema(entry.inputSchema as Parameters<typeof jsonSchema>[0]),
    needsApproval: (input, { toolCallId }) => entry.needsApproval(input, toolCallId),
    execute: async (input, { toolCallId, abortSignal }) => {
      const result = await entry.run(input, {
        callId: toolCallId,
        ...(abortSignal ? { signal: abortSignal } : {}),
      });
      await afterCall?.();
      return result;
    },
    toModelOutput: ({ output }) => modelOutput(output),
  }) as Tool;
}

function modelOutput(result: ToolResult) {
  const media = result.ok
    ? (result.attachments ?? []).filter(
        (attachment) => attachment.data !== undefined && attachment.mimeType !== undefined,
      )
    : [];
  if (media.length === 0) return { type: 'text' as const, value: resultText(result) };
  return {
    type: 'content' as const,
    value: [
      { type: 'text' as const, text: resultText(result) },
      ...media.map((attachment) => ({
        type: 'media' as const,
        data: attachment.data as string,
        mediaType: attachment.mimeType as string,
      })),
    ],
  };
}
