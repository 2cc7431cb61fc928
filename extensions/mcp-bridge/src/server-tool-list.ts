import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { McpToolDefinition } from './mcp-tool.js';

const toolsPageSchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string(), inputSchema: z.unknown().optional() })),
  nextCursor: z.string().nullish(),
});

/** Every tool a server lists, page by page; none when it offers no tools at all. */
export async function listServerTools(
  client: Client,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<McpToolDefinition[]> {
  // A server of resources or prompts only has no tools/list to ask (it would answer -32601).
  if (client.getServerCapabilities()?.tools === undefined) return [];
  const tools: McpToolDefinition[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    // A raw request with a lenient schema: the SDK's own listTools rejects the whole list when
    // one tool's input schema is not an object schema; here that one tool is skipped instead.
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      toolsPageSchema,
      { timeout: timeoutMs, signal },
    );
    tools.push(...(page.tools as McpToolDefinition[]));
    cursor = page.nextCursor ?? undefined;
    if (cursor !== undefined && seenCursors.has(cursor)) break;
    if (cursor !== undefined) seenCursors.add(cursor);
  } while (cursor !== undefined);
  return tools;
}
