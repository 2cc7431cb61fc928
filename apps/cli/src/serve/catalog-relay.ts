import {
  type GetPromptResult,
  type InputRequiredResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCP_SERVER_META_KEY } from '@quiver/runtime';
import type { ClientRelayHandle } from '@quiver/types';
import { errorMessage } from '@quiver/types';
import { type CatalogSource, relayScope } from './relay-scope.js';
import { relayedPrompts, resolvePrompt } from './relayed-prompts.js';
import { resourceOwner } from './resource-owner.js';

export type { CatalogSource } from './relay-scope.js';

/** How one prompts/get request lets the bridged server ask its caller (bound by mcp-server.ts). */
export interface PromptAsking {
  /** Who the bridge's relay asks: serve's relay, bound to this request's call id. */
  asker: {
    callId: string;
    sessionId: string;
    signal: AbortSignal;
    capabilities: { client_relay: ClientRelayHandle };
  };
  /** A 2026-07-28 request's input-required result when the server asked something not answered yet. */
  inputRequired(): Promise<InputRequiredResult | undefined>;
  end(): void;
}

/**
 * Relays the resources, resource templates and prompts of the bridged MCP servers that the
 * session's personality enables: resources keep their URIs (a resource link in a bridged tool's
 * result stays readable) and name their server in `_meta`; prompts are renamed like tools unless
 * the personality says `promptNames: own`. Declares the `resources` and `prompts` capabilities;
 * call before connecting.
 */
export function relayMcpCatalog(
  server: Server,
  source: CatalogSource,
  log: (message: string) => void,
  askDuring?: (ctx: ServerContext, prompt: string, args: unknown) => PromptAsking,
): void {
  server.registerCapabilities({ resources: {}, prompts: {} });

  const reportUnavailable = (what: string, unavailable: Array<{ server: string; reason: string }>) => {
    for (const entry of unavailable)
      log(`the ${what} of MCP server "${entry.server}" are left out: ${entry.reason}`);
  };

  server.setRequestHandler('resources/list', async (_request, ctx): Promise<ListResourcesResult> => {
    const { catalog, options } = relayScope(source, ctx.mcpReq.signal);
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

  server.setRequestHandler(
    'resources/templates/list',
    async (_request, ctx): Promise<ListResourceTemplatesResult> => {
      const { catalog, options } = relayScope(source, ctx.mcpReq.signal);
      if (catalog === undefined) return { resourceTemplates: [] };
      const listing = await catalog.listResourceTemplates(undefined, options);
      reportUnavailable('resource templates', listing.unavailable);
      return {
        resourceTemplates: listing.items.map(({ server: name, ...template }) => ({
          ...template,
          _meta: { ...template._meta, [MCP_SERVER_META_KEY]: name },
        })),
      };
    },
  );

  server.setRequestHandler('resources/read', async (request, ctx): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const scope = relayScope(source, ctx.mcpReq.signal);
    const { catalog } = scope;
    if (catalog === undefined) throw new ResourceNotFoundError(uri);
    const owner = await resourceOwner(scope, uri);
    try {
      return await catalog.readResource(owner, uri, scope.options);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `MCP server "${owner}" could not read ${uri}: ${errorMessage(error)}`,
      );
    }
  });

  server.setRequestHandler('prompts/list', async (_request, ctx): Promise<ListPromptsResult> => {
    const scope = relayScope(source, ctx.mcpReq.signal);
    if (scope.catalog === undefined) return { prompts: [] };
    const listing = await scope.catalog.listPrompts(undefined, scope.options);
    reportUnavailable('prompts', listing.unavailable);
    return {
      prompts: relayedPrompts(scope, listing.items).map(({ name, server: owner, prompt }) => {
        const { server: _server, ...fields } = prompt;
        return { ...fields, name, _meta: { ...prompt._meta, [MCP_SERVER_META_KEY]: owner } };
      }),
    };
  });

  // A prompt whose server asks its caller (elicitation, sampling) reaches the caller as a tool's
  // question would: a 2025-11-25 client is asked within the request, a 2026-07-28 client gets an
  // input-required result and sends prompts/get again with its answers.
  server.setRequestHandler('prompts/get', async (request, ctx): Promise<GetPromptResult> => {
    const { name, arguments: args } = request.params;
    const scope = relayScope(source, ctx.mcpReq.signal);
    const { catalog, server: owner, original } = await resolvePrompt(scope, name);
    const asking = askDuring?.(ctx, name, args ?? {});
    try {
      const result = await catalog.getPrompt(owner, original, args, {
        ...scope.options,
        ...(asking ? { asker: asking.asker } : {}),
      });
      return ((await asking?.inputRequired()) ?? result) as GetPromptResult;
    } catch (error) {
      const question = await asking?.inputRequired();
      if (question) return question as unknown as GetPromptResult;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `MCP server "${owner}" could not give the prompt "${original}": ${errorMessage(error)}`,
      );
    } finally {
      asking?.end();
    }
  });
}
