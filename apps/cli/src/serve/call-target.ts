import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  explainTool,
  resolveProviderName,
  resolveToolName,
  type Session,
  type ToolPool,
} from '@quiver/runtime';
import { CALL_TOOL_NAME, parseCallToolArguments } from './call-tool.js';
import type { ToolListing } from './tool-listing.js';

/** The call a `tools/call` request makes, or a tool error to answer without running anything. */
export type CallTarget =
  | {
      run: true;
      name: string;
      args: Record<string, unknown>;
      declaresOutputSchema: boolean;
      /** How the tool may run for a client of the tasks extension (undefined: optional). */
      taskSupport?: 'forbidden' | 'optional' | 'required';
    }
  | { run: false; error: string };

/**
 * Maps a `tools/call` request to the session's tool. Every tool of the pool is callable, listed
 * or deferred (what tool_search returned works without re-listing); `call_tool` unwraps to the
 * tool it names. A name outside the pool is a JSON-RPC error -32602, as MCP asks for unknown
 * tools, with the reason the pool gives (not enabled, denied by a rule, …).
 */
export function resolveCallTarget(
  requested: string,
  args: Record<string, unknown>,
  listing: ToolListing,
  session: Session,
): CallTarget {
  const pool = session.pool();
  const name = resolveProviderName(requested, listing.nameMap);
  const known = knownToolName(name, pool);
  if (known !== undefined) return target(known, args, pool);
  if (name === CALL_TOOL_NAME && listing.offersCallTool) {
    const inner = parseCallToolArguments(args);
    if (!inner.ok) return { run: false, error: inner.error };
    const innerName = resolveProviderName(inner.name, listing.nameMap);
    // The pipeline names an unknown inner tool in its own failure, which the model can act on.
    return target(knownToolName(innerName, pool) ?? innerName, inner.args, pool);
  }
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool "${requested}": ${explainTool(pool, name)}`,
  );
}

function target(name: string, args: Record<string, unknown>, pool: ToolPool): CallTarget {
  const tool = pool.executables.get(name)?.tool;
  return {
    run: true,
    name,
    args,
    declaresOutputSchema: tool?.outputSchema !== undefined,
    ...(tool?.taskSupport === undefined ? {} : { taskSupport: tool.taskSupport }),
  };
}

/** The pool tool a name refers to: itself, a declared alias or a compatibility name (`Read`). MCP names are case-sensitive. */
function knownToolName(name: string, pool: ToolPool): string | undefined {
  return resolveToolName(name, pool);
}
