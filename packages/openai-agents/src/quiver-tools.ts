import { type FunctionTool, tool } from '@openai/agents';
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

/**
 * `only` keeps the named tools; `approval` says who answers Quiver's asks: the SDK's human in the
 * loop (default: a call Quiver would ask about is a run interruption; `state.approve` runs it with
 * a once grant, or a session grant with `approvalScope: 'session'`; `state.reject` never runs it)
 * or, with `'quiver'`, the session's own resolver.
 */
export type QuiverToolsOptions = SessionToolsOptions;

type NonStrictParameters = {
  type: 'object';
  properties: Record<string, never>;
  required: never[];
  additionalProperties: true;
};

/**
 * The tools of a Quiver session as OpenAI Agents SDK function tools (non-strict: Quiver checks the
 * arguments against the tool's own schema). Each call runs through Quiver's pipeline
 * (permissions, with asks relayed to the SDK's tool approval as `needsApproval`; hooks; reducers;
 * the log), keyed by
 * the run's call id and aborted with its signal. A failure reaches the model as text; images as
 * image outputs.
 */
export async function quiverTools(
  session: ToolSession,
  options: QuiverToolsOptions = {},
): Promise<FunctionTool[]> {
  return (await sessionTools(session, options)).map((entry) => agentsTool(entry));
}

/**
 * `quiverTools` kept current: `tools` is one array (give it to the `Agent`) updated in place on
 * every `session.tools_updated` (an MCP server connecting, tools `tool_search` made visible), so
 * the run's next turn offers the new tools. `stop()` ends the watching.
 */
export async function liveQuiverTools(
  session: ToolSession,
  options: QuiverToolsOptions = {},
): Promise<{ tools: FunctionTool[]; stop(): void }> {
  const tools: FunctionTool[] = [];
  let watch: SessionToolsWatch | undefined;
  // A call that changed the tools returns once they are re-rendered: the next turn sees them.
  const afterCall = () => watch?.settled() ?? Promise.resolve();
  watch = await watchSessionTools(session, options, (entries) => {
    tools.splice(0, tools.length, ...entries.map((entry) => agentsTool(entry, afterCall)));
  });
  return { tools, stop: watch.stop };
}

function agentsTool(entry: SessionTool, afterCall?: () => Promise<void>): FunctionTool {
  return tool({
    name: entry.name,
    description: entry.description,
    parameters: {
      additionalProperties: true,
      required: [],
      ...entry.inputSchema,
    } as unknown as NonStrictParameters,
    strict: false,
    needsApproval: (_context, input, callId) => entry.needsApproval(input, callId),
    execute: async (input, _context, details) => {
      const callId = details?.toolCall?.callId;
      const result = await entry.run(input, {
        ...(callId ? { callId } : {}),
        ...(details?.signal ? { signal: details.signal } : {}),
      });
      await afterCall?.();
      return toolOutput(result);
    },
    // Quiver's failures are results already; anything thrown here is the transport's, shown as text.
    errorFunction: (_context, error) =>
      `Error (execution_failed): ${error instanceof Error ? error.message : String(error)}`,
  }) as unknown as FunctionTool;
}

function toolOutput(result: ToolResult) {
  const images = result.ok
    ? (result.attachments ?? []).filter(
        (attachment) => attachment.type === 'image' && attachment.data !== undefined,
      )
    : [];
  if (images.length === 0) return resultText(result);
  return [
    { type: 'text' as const, text: resultText(result) },
    ...images.map((image) => ({
      type: 'image' as const,
      image: { data: image.data as string, ...(image.mimeType ? { mediaType: image.mimeType } : {}) },
    })),
  ];
}
