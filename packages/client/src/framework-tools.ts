import type { ApprovalScope, McpToolDefinition, ToolResult } from './protocol-types.js';
import type { ToolSession } from './session.js';

/** One of a session's tools as a framework adapter wraps it: its definition and a runner. */
export interface SessionTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
  /**
   * Whether the framework must ask the person before it runs this call: Quiver would ask. The
   * call id is remembered, so the `run` of the same id after the framework's approval answers
   * Quiver's ask for exactly that call. False when asks are not relayed (see `approval`).
   */
  needsApproval(args: unknown, callId: string | undefined): Promise<boolean>;
  /** Runs one call through the session's pipeline; failures are results, never thrown. */
  run(args: unknown, options?: { callId?: string; signal?: AbortSignal }): Promise<ToolResult>;
}

export interface SessionToolsOptions {
  /** Keep only these tools (Quiver names). */
  only?: readonly string[];
  /**
   * Who answers Quiver's permission asks. `framework` (default when the session can `check`):
   * the framework's own approval step, through `needsApproval`; `quiver`: the session's resolver
   * (over rpc the client's `onPermission`; without one, asks are denied as in a headless session).
   */
  approval?: 'framework' | 'quiver';
  /** What a person's approval grants: this call only (default) or the call's suggested rule for the session. */
  approvalScope?: ApprovalScope;
}

/**
 * The tools a model sees in `session` (rendered in MCP's neutral shape), each with a runner that
 * sends the call through Quiver's pipeline: permissions (asks go to the framework's approval step
 * or the session's resolver), hooks, reducers, the result budget and the log. `only` keeps the
 * named tools.
 */
export async function sessionTools(
  session: ToolSession,
  options: SessionToolsOptions = {},
): Promise<SessionTool[]> {
  const { tools } = await session.render('mcp');
  const wanted = options.only ? new Set(options.only) : undefined;
  const check = options.approval === 'quiver' ? undefined : session.check?.bind(session);
  const scope = options.approvalScope ?? 'once';
  const asked = askedCalls(session);
  return tools
    .filter((tool: McpToolDefinition) => wanted === undefined || wanted.has(tool.name))
    .map((tool: McpToolDefinition) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      needsApproval: async (args, callId) => {
        if (check === undefined || callId === undefined || callId === '') return false;
        const [verdict] = await check([{ id: callId, name: tool.name, args: args ?? {} }]);
        if (verdict?.behavior !== 'ask') return false;
        asked.add(callId);
        return true;
      },
      run: async (args, runOptions = {}) => {
        const { callId, signal } = runOptions;
        const approved = callId !== undefined && asked.delete(callId);
        const [result] = await session.execute(
          [{ ...(callId ? { id: callId } : {}), name: tool.name, args: args ?? {} }],
          {
            ...(signal ? { signal } : {}),
            ...(approved ? { approvals: { [callId]: scope } } : {}),
          },
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

// Calls the framework was told to ask about, per session (kept across re-renders): their next
// run carries the person's approval.
const askedBySession = new WeakMap<ToolSession, Set<string>>();
function askedCalls(session: ToolSession): Set<string> {
  let asked = askedBySession.get(session);
  if (asked === undefined) askedBySession.set(session, (asked = new Set()));
  return asked;
}

/** A running `watchSessionTools`. */
export interface SessionToolsWatch {
  /** Stops watching. */
  stop(): void;
  /** Resolves once the renderings of the events delivered so far have reached `onTools`. */
  settled(): Promise<void>;
}

/**
 * Renders the session's tools now and again on every `session.tools_updated` (an MCP server
 * connecting, tools `tool_search` made visible, external tools replaced), calling `onTools` with
 * each rendering in order. Without events on the session (`onEvent` of `@quiver/client`, `events`
 * of an in-process session) it renders once.
 */
export async function watchSessionTools(
  session: ToolSession,
  options: SessionToolsOptions,
  onTools: (tools: SessionTool[]) => void,
): Promise<SessionToolsWatch> {
  let stopped = false;
  let rendering = Promise.resolve();
  const render = () => {
    rendering = rendering
      .then(async () => {
        const tools = await sessionTools(session, options);
        if (!stopped) onTools(tools);
      })
      .catch(() => {});
    return rendering;
  };
  const listener = (event: { type: string }) => {
    if (event.type === 'session.tools_updated' && !stopped) void render();
  };
  const unsubscribe = session.onEvent?.(listener) ?? session.events?.subscribe(listener) ?? (() => {});
  await render();
  return {
    stop: () => {
      stopped = true;
      unsubscribe();
    },
    settled: async () => {
      // An in-process bus delivers on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      await rendering;
    },
  };
}

/** What the model reads of a result: the text, or the failure with its code. */
export function resultText(result: ToolResult): string {
  return result.ok ? result.value : `Error (${result.code}): ${result.error}`;
}
