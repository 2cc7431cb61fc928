import type { DynamicStructuredTool } from '@langchain/core/tools';
import { tool } from '@langchain/core/tools';
import { resultText, sessionTools, type ToolResult, type ToolSession } from '@quiver/client';

export interface QuiverToolsOptions {
  /** Keep only these tools (Quiver names). */
  only?: readonly string[];
}

type JsonSchema = Record<string, unknown>;

/**
 * The tools of a Quiver session as LangChain.js structured tools (for `bindTools` and a tool
 * loop, or an agent). Each call runs through Quiver's pipeline (permissions, with asks answered by
 * the session's resolver; hooks; reducers; the log), keyed by the tool call's id and aborted with
 * the run's signal. The model reads the text (a failure as "Error (code): …"); the whole Quiver
 * result, attachments included, is the ToolMessage's `artifact`.
 */
export async function quiverTools(
  session: ToolSession,
  options: QuiverToolsOptions = {},
): Promise<DynamicStructuredTool[]> {
  return (await sessionTools(session, options)).map(
    (entry) =>
      tool(
        async (input: unknown, config): Promise<[string, ToolResult]> => {
          const callId = config?.toolCall?.id;
          const result = await entry.run(input, {
            ...(callId ? { callId } : {}),
            ...(config?.signal ? { signal: config.signal } : {}),
          });
          return [resultText(result), result];
        },
        {
          name: entry.name,
          description: entry.description,
          schema: entry.inputSchema as JsonSchema,
          responseFormat: 'content_and_artifact',
        },
      ) as unknown as DynamicStructuredTool,
  );
}
