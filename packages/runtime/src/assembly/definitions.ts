import type { ToolDefinitionLite } from '@quiver/types';
import type { PoolTool } from '../contracts.js';
import { sha256, stableStringify } from './stable-json.js';

const definitions = new WeakMap<PoolTool, ToolDefinitionLite>();

/**
 * What the model sees of a pool tool: metadata only. Made once per pool tool and frozen, since
 * pool tools are immutable and reassembly should not rebuild 10,000 identical objects.
 */
export function toDefinition(tool: PoolTool): ToolDefinitionLite {
  let cached = definitions.get(tool);
  if (cached === undefined) {
    cached = Object.freeze(createDefinition(tool));
    definitions.set(tool, cached);
  }
  return cached;
}

function createDefinition(tool: PoolTool): ToolDefinitionLite {
  const definition: ToolDefinitionLite = {
    name: tool.name,
    description: tool.tool.description,
    parameters: tool.parameters,
  };
  if (tool.tool.title !== undefined) definition.title = tool.tool.title;
  if (tool.tool.annotations !== undefined) definition.annotations = tool.tool.annotations;
  if (tool.tool.outputSchema !== undefined) definition.outputSchema = tool.tool.outputSchema;
  if (tool.deferred) definition.deferLoading = true;
  return definition;
}

/**
 * Estimated tokens the definitions take in a request: the characters of their JSON (name,
 * description, parameters) divided by 4, the usual rule of thumb for English and JSON with
 * BPE tokenizers. Good for thresholds and comparisons, not for billing.
 */
export function estimateTokens(definitions: readonly ToolDefinitionLite[]): number {
  let characters = 0;
  for (const definition of definitions) {
    characters += JSON.stringify({
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
    }).length;
  }
  return Math.ceil(characters / 4);
}

const DIGEST_LENGTH = 20;
const schemaDigests = new WeakMap<object, string>();
const toolDigests = new WeakMap<
  object,
  { parameters: Record<string, unknown>; shown: string; deferred: string }
>();

/**
 * sha256 over the final definitions in order: equal signatures mean an identical tool list.
 * Each definition is digested on its own (name, description, title, annotations, schema), then
 * the digests and deferred flags are hashed together; see poolSignatureOfTools for the cached path.
 */
export function poolSignature(definitions: readonly ToolDefinitionLite[]): string {
  return sha256(
    definitions
      .map((definition) => `${definitionDigest(definition)}${definition.deferLoading ? '+' : '-'}`)
      .join(''),
  );
}

/**
 * The same signature as poolSignature(pool tools → definitions), with each tool's digest cached
 * by tool and schema object: registered tools and their derived schemas are immutable, so a
 * 10,000-tool pool hashes only the short digests on reassembly.
 */
export function poolSignatureOfTools(tools: readonly PoolTool[]): string {
  const parts: string[] = new Array(tools.length);
  for (let index = 0; index < tools.length; index += 1) {
    const tool = tools[index] as PoolTool;
    let cached = toolDigests.get(tool.tool);
    if (cached === undefined || cached.parameters !== tool.parameters || tool.name !== tool.tool.name) {
      const digest = definitionDigest(createDefinition({ ...tool, deferred: false }));
      cached = { parameters: tool.parameters, shown: `${digest}-`, deferred: `${digest}+` };
      if (tool.name === tool.tool.name) toolDigests.set(tool.tool, cached);
    }
    parts[index] = tool.deferred ? cached.deferred : cached.shown;
  }
  return sha256(parts.join(''));
}

function definitionDigest(definition: ToolDefinitionLite): string {
  const annotations = definition.annotations ? stableStringify(definition.annotations) : '';
  return sha256(
    [
      definition.name,
      definition.description,
      definition.title ?? '',
      annotations,
      schemaDigest(definition.parameters),
      definition.outputSchema ? schemaDigest(definition.outputSchema) : '',
    ].join('\u0000'),
  ).slice(0, DIGEST_LENGTH);
}

function schemaDigest(schema: Record<string, unknown>): string {
  let digest = schemaDigests.get(schema);
  if (digest === undefined) {
    digest = sha256(stableStringify(schema));
    schemaDigests.set(schema, digest);
  }
  return digest;
}
