import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { RelayScope } from './relay-scope.js';

/**
 * The bridged server a URI belongs to: the one that lists it as a resource (or, with
 * `templates`, as a resource template's `uriTemplate`). A URI nobody lists (a template's
 * expansion, a link in a tool result) can only go to a server when one alone could have it.
 */
export async function resourceOwner(
  scope: RelayScope,
  uri: string,
  options: { templates?: boolean } = {},
): Promise<string> {
  const { catalog } = scope;
  if (catalog === undefined) throw new ResourceNotFoundError(uri);
  const [resources, templates] = await Promise.all([
    catalog.listResources(undefined, scope.options),
    options.templates ? catalog.listResourceTemplates(undefined, scope.options) : undefined,
  ]);
  const owners = new Set(resources.items.filter((item) => item.uri === uri).map((item) => item.server));
  for (const template of templates?.items ?? [])
    if (template.uriTemplate === uri) owners.add(template.server);
  const { servers } = scope.options;
  const candidates = owners.size > 0 ? [...owners] : servers.length === 1 ? servers : [];
  if (candidates.length > 1)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `the resource ${uri} is listed by several MCP servers (${candidates.join(', ')}); Quiver cannot tell which one to use`,
    );
  const [owner] = candidates;
  if (owner === undefined) throw new ResourceNotFoundError(uri, `no MCP server of this session lists ${uri}`);
  return owner;
}
