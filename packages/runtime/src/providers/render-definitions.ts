import type { ToolAnnotations, ToolDefinitionLite } from '@quiver/types';
import type { ProviderFormat, ToolPool } from '../contracts.js';
import { toGeminiSchema } from './gemini-schema.js';
import { allowsOpenAiStrict } from './openai-strict.js';
import { DEFAULT_TOOL_NAME_LIMIT, providerToolName } from './provider-names.js';

export interface AnthropicToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: { type: 'ephemeral' };
  defer_loading?: true;
}

export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
}

export interface GeminiToolBlock {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The schema of `structuredContent` in results, when the tool declares one. */
  outputSchema?: Record<string, unknown>;
  /** MCP's field for metadata: `quiver/mcpServer` names the server a bridged tool comes from. */
  _meta?: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

export interface RenderedToolsByFormat {
  anthropic: AnthropicToolDefinition;
  openai: OpenAiToolDefinition;
  gemini: GeminiToolBlock;
  mcp: McpToolDefinition;
}

export interface RenderedDefinitions<F extends ProviderFormat> {
  format: F;
  /** The `tools` array of the provider's request (Gemini: one block with every declaration). */
  tools: RenderedToolsByFormat[F][];
  /** Provider name → pool name, for names that had to be shortened or cleaned. */
  nameMap: Record<string, string>;
}

export interface RenderOptions {
  /** Leading definitions forming the stable built-in prefix; Anthropic's cache breakpoint goes on the last. Default: up to the last non-deferred definition. */
  stablePrefixLength?: number | undefined;
  toolNameLimit?: number | undefined;
  /** Providers without deferred loading omit deferred tools (tool_search finds them); set to send them anyway. */
  includeDeferred?: boolean | undefined;
  /**
   * Whether the model accepts deferred definitions (Anthropic's `defer_loading`); false omits them
   * in the Anthropic format too. renderToolPool fills it from the profile's `supportsDeferLoading`.
   */
  deferLoadingSupported?: boolean | undefined;
  /** Tool name → the MCP server it comes from; renderToolPool fills it from the pool. */
  mcpServers?: Readonly<Record<string, string>> | undefined;
}

/** The `_meta` key of an MCP definition that names the server a bridged tool comes from. */
export const MCP_SERVER_META_KEY = 'quiver/mcpServer';

/** Renders neutral definitions in a provider's wire format, keeping names dispatchable through `nameMap`. */
export function renderDefinitions<F extends ProviderFormat>(
  definitions: readonly ToolDefinitionLite[],
  format: F,
  options: RenderOptions = {},
): RenderedDefinitions<F> {
  const nameMap: Record<string, string> = {};
  const limit = options.toolNameLimit ?? DEFAULT_TOOL_NAME_LIMIT[format];
  const rename = (name: string) => {
    const sent = providerToolName(name, format, limit);
    if (sent !== name) nameMap[sent] = name;
    return sent;
  };
  const keepDeferred =
    (format === 'anthropic' && options.deferLoadingSupported !== false) || options.includeDeferred === true;
  const serverOf = (definition: ToolDefinitionLite) =>
    options.mcpServers && Object.hasOwn(options.mcpServers, definition.name)
      ? options.mcpServers[definition.name]
      : undefined;
  // Anthropic, OpenAI and Gemini refuse fields they do not define, so the server goes in the description.
  const describe = (definition: ToolDefinitionLite) => {
    const server = serverOf(definition);
    return server === undefined
      ? definition.description
      : `${definition.description}\n\n(Tool of the MCP server "${server}".)`;
  };
  const visible = keepDeferred ? definitions : definitions.filter((definition) => !definition.deferLoading);
  let tools: unknown[];
  switch (format) {
    case 'anthropic': {
      const breakpoint = cacheBreakpoint(visible, options.stablePrefixLength);
      tools = visible.map((definition, index): AnthropicToolDefinition => {
        const tool: AnthropicToolDefinition = {
          name: rename(definition.name),
          description: describe(definition),
          input_schema: definition.parameters,
        };
        if (index === breakpoint) tool.cache_control = { type: 'ephemeral' };
        if (definition.deferLoading) tool.defer_loading = true;
        return tool;
      });
      break;
    }
    case 'openai':
      tools = visible.map(
        (definition): OpenAiToolDefinition => ({
          type: 'function',
          function: {
            name: rename(definition.name),
            description: describe(definition),
            parameters: withoutSchemaDialect(definition.parameters),
            strict: allowsOpenAiStrict(definition.parameters),
          },
        }),
      );
      break;
    case 'gemini': {
      const functionDeclarations = visible.map((definition): GeminiFunctionDeclaration => {
        const declaration: GeminiFunctionDeclaration = {
          name: rename(definition.name),
          description: describe(definition),
        };
        const parameters = toGeminiSchema(definition.parameters);
        if (parameters.properties && Object.keys(parameters.properties).length > 0)
          declaration.parameters = parameters;
        return declaration;
      });
      tools = functionDeclarations.length > 0 ? [{ functionDeclarations }] : [];
      break;
    }
    default:
      tools = visible.map((definition): McpToolDefinition => {
        const tool: McpToolDefinition = {
          name: rename(definition.name),
          description: definition.description,
          inputSchema: definition.parameters,
        };
        if (definition.title !== undefined) tool.title = definition.title;
        if (definition.outputSchema !== undefined) tool.outputSchema = definition.outputSchema;
        if (definition.annotations) tool.annotations = mcpAnnotations(definition.annotations);
        const server = serverOf(definition);
        if (server !== undefined) tool._meta = { [MCP_SERVER_META_KEY]: server };
        return tool;
      });
  }
  return { format, tools: tools as RenderedToolsByFormat[F][], nameMap };
}

/** Renders a session pool for its model's provider (or `format`), with the pool's cache prefix. */
export function renderToolPool<F extends ProviderFormat>(
  pool: ToolPool,
  format?: F,
  options: RenderOptions = {},
): RenderedDefinitions<F> {
  const target = (format ?? pool.profile.provider) as F;
  const mcpServers: Record<string, string> = {};
  for (const tool of pool.executables.values())
    if (tool.mcpServer !== undefined) mcpServers[tool.name] = tool.mcpServer;
  return renderDefinitions(pool.definitions, target, {
    stablePrefixLength: pool.stablePrefixLength,
    toolNameLimit: target === pool.profile.provider ? pool.profile.toolNameLimit : undefined,
    // A format other than the model's own is rendered for someone else, who may accept deferral.
    deferLoadingSupported: target === pool.profile.provider ? pool.profile.supportsDeferLoading : undefined,
    mcpServers,
    ...options,
  });
}

function cacheBreakpoint(
  definitions: readonly ToolDefinitionLite[],
  prefixLength: number | undefined,
): number {
  if (prefixLength !== undefined) return Math.min(prefixLength, definitions.length) - 1;
  for (let index = definitions.length - 1; index >= 0; index -= 1)
    if (!definitions[index]?.deferLoading) return index;
  return -1;
}

function withoutSchemaDialect(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function mcpAnnotations(annotations: ToolAnnotations): NonNullable<McpToolDefinition['annotations']> {
  const result: NonNullable<McpToolDefinition['annotations']> = {};
  if (annotations.readOnly !== undefined) result.readOnlyHint = annotations.readOnly;
  if (annotations.destructive !== undefined) result.destructiveHint = annotations.destructive;
  if (annotations.idempotent !== undefined) result.idempotentHint = annotations.idempotent;
  if (annotations.openWorld !== undefined) result.openWorldHint = annotations.openWorld;
  return result;
}
