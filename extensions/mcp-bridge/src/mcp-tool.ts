import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { Tool, ToolAnnotations, ToolContext, ToolResult } from '@quiver/types';
import { z } from 'zod';

export type { McpToolDefinition };

export interface McpToolOptions {
  server: string;
  name: string;
  definition: McpToolDefinition;
  callTimeoutMs: number;
  maxCallTimeoutMs: number;
  /** The server's hints are copied only when its configuration says to trust them. */
  trustAnnotations: boolean;
  /** The server may ask the session's client (elicitation, sampling): the tool needs the host's relay. */
  relay?: boolean;
  call: (
    definition: McpToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ) => Promise<ToolResult>;
}

function toAnnotations(definition: McpToolDefinition): ToolAnnotations | undefined {
  const hints = definition.annotations;
  if (hints === undefined) return undefined;
  const annotations: ToolAnnotations = {};
  if (typeof hints.readOnlyHint === 'boolean') annotations.readOnly = hints.readOnlyHint;
  if (typeof hints.destructiveHint === 'boolean') annotations.destructive = hints.destructiveHint;
  if (typeof hints.idempotentHint === 'boolean') annotations.idempotent = hints.idempotentHint;
  if (typeof hints.openWorldHint === 'boolean') annotations.openWorld = hints.openWorldHint;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}

/** The server validates arguments against its own schema; Quiver only checks for an object. */
const permissiveInput = z.looseObject({});

/**
 * One MCP tool as a Quiver tool. Capabilities are `{}` (the server is its own process), or only
 * the client relay when the server may ask the session's client something.
 */
export function createMcpTool(options: McpToolOptions): Tool<typeof permissiveInput> {
  const { definition } = options;
  const title = definition.title ?? definition.annotations?.title;
  const tool: Tool<typeof permissiveInput> = {
    name: options.name,
    description: definition.description ?? '',
    input: permissiveInput,
    capabilities: options.relay ? { client_relay: true } : {},
    parametersJsonSchema: definition.inputSchema as Record<string, unknown>,
    mcp: { server: options.server, originalName: definition.name },
    timeouts: { defaultMs: options.callTimeoutMs, maxMs: options.maxCallTimeoutMs },
    execute: (args, ctx) => options.call(definition, args, ctx),
  };
  if (title !== undefined) tool.title = title;
  // Clients validate `structuredContent` against it; a non-object schema is not one MCP allows.
  if (isObjectSchema(definition.outputSchema)) tool.outputSchema = definition.outputSchema;
  const annotations = options.trustAnnotations ? toAnnotations(definition) : undefined;
  if (annotations !== undefined) tool.annotations = annotations;
  return tool;
}
