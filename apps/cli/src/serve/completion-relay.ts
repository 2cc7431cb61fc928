import {
  type CompleteRequest,
  type CompleteResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import { errorMessage } from '@quiver/types';
import { type CatalogSource, relayScope } from './relay-scope.js';
import { resolvePrompt } from './relayed-prompts.js';
import { resourceOwner } from './resource-owner.js';

type CompleteParams = CompleteRequest['params'];

/**
 * Relays `completion/complete` for a relayed prompt (by the name the client sees, mapped back to
 * the server's own) or resource template (by its URI template) to the server that offers it.
 * Registers the handler and declares `completions`; only possible before connecting.
 */
export function relayCompletions(server: Server, source: CatalogSource): void {
  server.registerCapabilities({ completions: {} });
  server.setRequestHandler('completion/complete', async (request, ctx): Promise<CompleteResult> => {
    const params: CompleteParams = request.params;
    const scope = relayScope(source, ctx.mcpReq.signal);
    const { ref } = params;
    let owner: string;
    let forwarded: CompleteParams;
    if (ref.type === 'ref/prompt') {
      const resolved = await resolvePrompt(scope, ref.name);
      owner = resolved.server;
      forwarded = { ...params, ref: { ...ref, name: resolved.original } };
    } else {
      owner = await resourceOwner(scope, ref.uri, { templates: true });
      forwarded = params;
    }
    const { catalog } = scope;
    if (catalog === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'no MCP server is bridged here');
    try {
      return await catalog.complete(owner, forwarded, scope.options);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `MCP server "${owner}" could not complete "${params.argument.name}": ${errorMessage(error)}`,
      );
    }
  });
}
