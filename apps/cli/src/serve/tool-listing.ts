import type { ListToolsResult } from '@modelcontextprotocol/server';
import { estimateTokens, type McpToolDefinition, type Session, TOOL_SEARCH_TOOL_NAME } from '@quiver/runtime';
import { CALL_TOOL_NAME, callToolDefinition } from './call-tool.js';

type McpTool = ListToolsResult['tools'][number];

/** What an MCP client sees of a session's pool, rendered once per pool signature. */
export interface ToolListing {
  readonly signature: string;
  readonly tools: McpTool[];
  /** Provider name → pool name, for names the renderer had to shorten. */
  readonly nameMap: Record<string, string>;
  /** Tools left to tool_search (and callable by name or through call_tool). */
  readonly deferredTools: number;
  /** Estimated tokens of the listed definitions (characters / 4, as `quiver tools` prints). */
  readonly tokens: number;
  /** Whether `call_tool` is Quiver's stable call path here (no pool tool has that name). */
  readonly offersCallTool: boolean;
}

/**
 * The tools an MCP client sees: the pool in MCP shape, deferred tools left to tool_search, plus
 * `call_tool` next to tool_search so clients that never re-list can still run what it finds.
 */
export function listTools(session: Session): ToolListing {
  const pool = session.pool();
  // Through the session, so each bridged tool names its MCP server in `_meta`.
  const rendered = session.render('mcp');
  const tools = rendered.tools.map(toMcpTool);
  const deferredTools = pool.definitions.filter((definition) => definition.deferLoading).length;
  const offersCallTool = !pool.executables.has(CALL_TOOL_NAME);
  // Whenever tool_search is offered: what it finds may be deferred, or from a server that
  // connected after the client listed.
  if (pool.executables.has(TOOL_SEARCH_TOOL_NAME) && offersCallTool) tools.push(callToolDefinition);
  const tokens = estimateTokens(
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
    })),
  );
  return {
    signature: pool.signature,
    tools,
    nameMap: rendered.nameMap,
    deferredTools,
    tokens,
    offersCallTool,
  };
}

/** One connection's listing, rendered again only when the session or its pool signature changes. */
export class ToolListingCache {
  #session: Session | undefined;
  #listing: ToolListing | undefined;

  get(session: Session): ToolListing {
    const signature = session.pool().signature;
    if (this.#listing && this.#session === session && this.#listing.signature === signature)
      return this.#listing;
    this.#session = session;
    this.#listing = listTools(session);
    return this.#listing;
  }
}

function toMcpTool(definition: McpToolDefinition): McpTool {
  // MCP requires an object schema at the root; pool definitions always have one.
  return { ...definition, inputSchema: { ...definition.inputSchema, type: 'object' } };
}
