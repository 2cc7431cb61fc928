import type { CallToolResult } from '@modelcontextprotocol/client';
import { defineTool, errorMessage, fail, ok, type Tool } from '@quiver/types';
import { z } from 'zod';
import { toToolResult } from './call-result.js';
import { cleanDefinitionText, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS } from './clean-text.js';
import { type McpCatalog, type McpResource, UnknownMcpServerError } from './mcp-catalog.js';

const listInput = z
  .object({
    server: z
      .string()
      .min(1)
      .optional()
      .describe('Only this MCP server (its name in the configuration); default every server.'),
  })
  .strict();

const readInput = z
  .object({
    server: z.string().min(1).describe('The MCP server that lists the resource.'),
    uri: z.string().min(1).describe('The resource URI, as list_mcp_resources shows it.'),
  })
  .strict();

function clean(text: string | undefined, max: number): string | undefined {
  return text === undefined ? undefined : cleanDefinitionText(text, max).text;
}

function describeResource(resource: McpResource): string {
  const name = clean(resource.title ?? resource.name, MAX_TITLE_CHARS);
  const details = [resource.mimeType, resource.size === undefined ? undefined : `${resource.size} bytes`]
    .filter((part) => part !== undefined)
    .join(', ');
  const description = clean(resource.description, MAX_DESCRIPTION_CHARS);
  return `${resource.server}: ${clean(resource.uri, MAX_TITLE_CHARS)}${name ? ` — ${name}` : ''}${details ? ` (${details})` : ''}${description ? `\n  ${description.replace(/\n/g, '\n  ')}` : ''}`;
}

export interface ResourceToolsOptions {
  /**
   * The servers a session under this personality may read (those it enables). Default: every
   * server of the bridge.
   */
  serversFor?: (personalityId: string) => readonly string[];
}

/** The resource tools only for a session whose personality enables an MCP server: there is nothing to read otherwise. */
function resourcesReachable(session?: { readonly mcpServers: readonly string[] }) {
  if (session === undefined || session.mcpServers.length > 0) return true;
  return { available: false, reason: 'the personality enables no MCP server' };
}

/**
 * `list_mcp_resources` and `read_mcp_resource`: the model's view of the resources (files,
 * records, documents) that connected MCP servers offer. They run through the call pipeline like
 * any tool (permission rules `list_mcp_resources(<server>)`, `read_mcp_resource(<server>:<uri>)`,
 * reducers, the result budget).
 */
export function createResourceTools(catalog: McpCatalog, options: ResourceToolsOptions = {}): Tool[] {
  const visible = (personalityId: string) =>
    options.serversFor === undefined ? {} : { servers: options.serversFor(personalityId) };
  const list = defineTool({
    name: 'list_mcp_resources',
    title: 'List MCP resources',
    description:
      'Lists the resources (files, documents, records) that the connected MCP servers offer, with their server and URI. Read one with read_mcp_resource.',
    input: listInput,
    capabilities: {},
    isAvailable: resourcesReachable,
    annotations: { readOnly: true, idempotent: true },
    permission: { kind: 'custom', specifier: (args) => args.server },
    async execute(args, ctx) {
      try {
        const listing = await catalog.listResources(args.server, {
          signal: ctx.signal,
          ...visible(ctx.personalityId),
        });
        const lines = listing.items.map(describeResource);
        const missing = listing.unavailable.map(
          (entry) => `${entry.server}: could not be listed: ${clean(entry.reason, MAX_TITLE_CHARS)}`,
        );
        const text =
          lines.length === 0 && missing.length === 0
            ? args.server === undefined
              ? 'No MCP server offers resources.'
              : `MCP server "${args.server}" offers no resources.`
            : [...lines, ...missing].join('\n');
        return ok(text, {
          structured: {
            resources: listing.items.map((resource) => ({
              server: resource.server,
              uri: resource.uri,
              name: clean(resource.name, MAX_TITLE_CHARS),
              ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
            })),
            unavailable: listing.unavailable,
          },
        });
      } catch (error) {
        if (error instanceof UnknownMcpServerError) return fail('input_invalid', error.message);
        return fail('execution_failed', `listing MCP resources failed: ${errorMessage(error)}`);
      }
    },
  });
  const read = defineTool({
    name: 'read_mcp_resource',
    title: 'Read an MCP resource',
    description:
      'Reads one resource of a connected MCP server by its URI (find URIs with list_mcp_resources). Text comes back as text; binary content is attached.',
    input: readInput,
    capabilities: {},
    isAvailable: resourcesReachable,
    annotations: { readOnly: true, idempotent: true },
    permission: { kind: 'custom', specifier: (args) => `${args.server}:${args.uri}` },
    async execute(args, ctx) {
      try {
        const result = await catalog.readResource(args.server, args.uri, {
          signal: ctx.signal,
          ...visible(ctx.personalityId),
        });
        const content = result.contents.map((resource) => ({ type: 'resource' as const, resource }));
        if (content.length === 0) return ok(`MCP resource ${args.uri} of server "${args.server}" is empty.`);
        return toToolResult({ content } as CallToolResult);
      } catch (error) {
        if (error instanceof UnknownMcpServerError) return fail('input_invalid', error.message);
        if (ctx.signal.aborted) return fail('aborted', `reading MCP resource ${args.uri} was aborted`);
        return fail(
          'execution_failed',
          `MCP server "${args.server}" could not read ${args.uri}: ${clean(errorMessage(error), MAX_DESCRIPTION_CHARS)}`,
        );
      }
    },
  });
  return [list as unknown as Tool, read as unknown as Tool];
}
