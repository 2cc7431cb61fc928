import type { McpToolDefinition, ToolResult } from './protocol-types.js';
import type { ToolSession } from './session.js';

/** One of a session's tools as a framework adapter wraps it: its definition and a runner. */
export interface SessionTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
  /** Runs one call through the session's pipeline; failures are results, never thrown. */
  run(args: unknown, options?: { callId?: string; signal?: AbortSignal }): Promise<ToolResult>;
}

/**
 * The tools a model sees in `session` (rendered in MCP's neutral shape), each with a runner that
 * sends the call through Quiver's pipeline: permissions (asks go to the session's resolver), hooks,
 * reducers, the result budget and the log. `only` keeps the named tools.
 */
export async function sessionTools(
  session: ToolSession,
  options: { only?: readonly string[] } = {},
): Promise<SessionTool[]> {
  const { tools } = await session.render('mcp');
  const wanted = options.only ? new Set(options.only) : undefined;
  return tools
    .filter((tool: McpToolDefinition) => wanted === undefined || wanted.has(tool.name))
    .map((tool: McpToolDefinition) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      run: async (args, runOptions = {}) => {
        const [result] = await session.execute(
          [{ ...(runOptions.callId ? { id: runOptions.callId } : {}), name: tool.name, args: args ?? {} }],
          runOptions.signal ? { signal: runOptions.signal } : {},
        );
        return (
          result ?? {
            ok: false,
            code: 'execution_failed',
            error: `Quiver returned no result for ${tool.name}.`,
          }
        );
      },
    }));
}

/** What the model reads of a result: the text, or the failure with its code. */
export function resultText(result: ToolResult): string {
  return result.ok ? result.value : `Error (${result.code}): ${result.error}`;
}
