import {
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
} from '@modelcontextprotocol/server';
import { MCP_SERVER_META_KEY, type Session } from '@quiver/runtime';
import type { Quiver } from '@quiver/wiring';

type Catalog = NonNullable<Quiver['mcpCatalog']>;

/** What the relay reads at each request: the connection's current configuration and session. */
export type CatalogSource = () => { quiver: Quiver; session: Session };

/** Prompts are namespaced like tools: `mcp__<server>__<prompt>` (server names never hold `__`). */
const PROMPT_NAME = /^mcp__([a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*)__(.+)$/s;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The bridged servers the session's personality enables: the only ones it may see. */
function visibleServers(quiver: Quiver, session: Session): string[] {
  return Object.keys(quiver.host.personality(session.options.personality).mcpServers);
}

function catalogOf(quiver: Quiver): Catalog | undefined {
  return quiver.mcpCatalog;
}

/**
 * Relays the resources and prompts of the bridged MCP servers that the session's personality
 * enables: resources keep their URIs (a resource link in a bridged tool's result stays
 * readable) and name their server in `_meta`; prompts are renamed like tools. Declares the
 * `resources` and `prompts` capabilities; call before connecting.
 */
export function relayMcpCatalog(server: Server, source: CatalogSource, log: (message: string) => void): void {
  server.registerCapabilities({ resources: {}, prompts: {} });

  const scope = (signal: AbortSignal) => {
    const { quiver, session } = source();
    return { catalog: catalogOf(quiver), options: { servers: visibleServers(quiver, session), signal } };
  };
  const reportUnavailable = (what: string, unavailable: Array<{ server: string; reason: string }>) => {
    for (const entry of unavailable)
      log(`the ${what} of MCP server "${entry.server}" are left out: ${entry.reason}`);
  };

  server.setRequestHandler('resources/list', async (_request, ctx): Promise<ListResourcesResult> => {
    const { catalog, options } = scope(ctx.mcpReq.signal);
    if (catalog === undefined) return { resources: [] };
    const listing = await catalog.listResources(undefined, options);
    reportUnavailable('resources', listing.unavailable);
    return {
      resources: listing.items.map(({ server: name, ...resource }) => ({
        ...resource,
        _meta: { ...resource._meta, [MCP_SERVER_META_KEY]: name },
      })),
    };
  });

  server.setRequestHandler('resources/read', async (request, ctx): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const { catalog, options } = scope(ctx.mcpReq.signal);
    if (catalog === undefined) throw new ResourceNotFoundError(uri);
    const listing = await catalog.listResources(undefined, options);
    const owners = [...new Set(listing.items.filter((item) => item.uri === uri).map((item) => item.server))];
    // An unlisted URI (a template's, a link in a tool result) can only go to a server when one alone could have it.
    const candidates = owners.length > 0 ? owners : options.servers.length === 1 ? options.servers : [];
    if (candidates.length > 1)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `the resource ${uri} is listed by several MCP servers (${candidates.join(', ')}); Quiver cannot tell which one to read`,
      );
    const [owner] = candidates;
    if (owner === undefined)
      throw new ResourceNotFoundError(uri, `no MCP server of this session lists ${uri}`);
    try {
      return await catalog.readResource(owner, uri, options);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `MCP server "${owner}" could not read ${uri}: ${messageOf(error)}`,
      );
    }
  });

  server.setRequestHandler('prompts/list', async (_request, ctx): Promise<ListPromptsResult> => {
    const { catalog, options } = scope(ctx.mcpReq.signal);
    if (catalog === undefined) return { prompts: [] };
    const listing = await catalog.listPrompts(undefined, options);
    reportUnavailable('prompts', listing.unavailable);
    return {
      prompts: listing.items.map(({ server: name, ...prompt }) => ({
        ...prompt,
        name: `mcp__${name}__${prompt.name}`,
        _meta: { ...prompt._meta, [MCP_SERVER_META_KEY]: name },
      })),
    };
  });

  server.setRequestHandler('prompts/get', async (request, ctx): Promise<GetPromptResult> => {
    const { name, arguments: args } = request.params;
    const match = PROMPT_NAME.exec(name);
    const { catalog, options } = scope(ctx.mcpReq.signal);
    if (match === null || catalog === undefined || !options.servers.includes(match[1] as string))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `there is no prompt "${name}" here; prompts are named mcp__<server>__<prompt>, as prompts/list shows them`,
      );
    const [, owner, prompt] = match as unknown as [string, string, string];
    try {
      return await catalog.getPrompt(owner, prompt, args, options);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `MCP server "${owner}" could not give the prompt "${prompt}": ${messageOf(error)}`,
      );
    }
  });
}
