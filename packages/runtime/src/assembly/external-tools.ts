import { TOOL_NAME_PATTERN, type Tool } from '@quiver/types';
import type { ExternalToolDefinition, PoolDiagnostic } from '../contracts.js';
import { jsonSchemaToPermissiveZod } from './json-schema-input.js';
import { sha256, stableStringify } from './stable-json.js';

/**
 * A hash of what the model would see of the external tools and of how their calls are decided
 * (skipPermission); callbacks do not count.
 */
export function externalToolsSignature(definitions: readonly ExternalToolDefinition[]): string {
  return sha256(
    stableStringify(
      definitions.map((definition) => ({
        name: definition.name,
        description: definition.description,
        title: definition.title ?? null,
        parameters: definition.parameters ?? null,
        annotations: definition.annotations ?? null,
        overridesBuiltInTool: definition.overridesBuiltInTool === true,
        skipPermission: definition.skipPermission === true,
      })),
    ),
  );
}

/** A child session's external tools: the parent's, with the child's own added and replacing those of the same name. */
export function mergeExternalTools(
  parent: readonly ExternalToolDefinition[],
  child: readonly ExternalToolDefinition[],
): ExternalToolDefinition[] {
  const own = new Set(child.map((definition) => definition.name));
  return [...parent.filter((definition) => !own.has(definition.name)), ...child];
}

/** The schema of an external tool defined without parameters: it takes no arguments. */
export const EMPTY_OBJECT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
});

/** The JSON Schema an external tool is shown with. */
export function externalParameters(definition: ExternalToolDefinition): Record<string, unknown> {
  return definition.parameters ?? (EMPTY_OBJECT_SCHEMA as Record<string, unknown>);
}

const skippingPermission = new WeakMap<Tool, string>();
/** Tools wrapping an SDK client's definition as it gave it: no permission kind of their own. */
const clientDefined = new WeakSet<Tool>();

/**
 * True for an SDK client's tool that declares no permission kind and answers to no built-in:
 * it is judged by its own name only, never by a blanket rule written for another tool (a
 * `terminal` allow does not reach a client's `bash`).
 */
export function judgedByNameOnly(tool: Tool): boolean {
  return clientDefined.has(tool);
}

/** Wraps an SDK client's definition as a Tool: its JSON Schema is shown as-is and checked permissively. */
export function wrapExternalTool(definition: ExternalToolDefinition): Tool {
  const parameters = externalParameters(definition);
  const tool: Tool = {
    name: definition.name,
    description: definition.description,
    input: jsonSchemaToPermissiveZod(parameters),
    capabilities: {},
    parametersJsonSchema: parameters,
    execute: (args, ctx) =>
      definition.execute(args, { callId: ctx.callId, signal: ctx.signal, emit: ctx.emit }),
  };
  if (definition.title !== undefined) tool.title = definition.title;
  if (definition.annotations !== undefined) tool.annotations = definition.annotations;
  if (definition.skipPermission === true)
    skippingPermission.set(tool, 'its SDK client registered it with skipPermission');
  clientDefined.add(tool);
  return tool;
}

/**
 * Why a tool runs without asking when no rule decides its call: an external tool its SDK client
 * registered with `skipPermission`, or a tool the runtime itself builds (tool_search). Kept
 * beside the tools rather than on Tool, so a plugin cannot declare its own tools exempt.
 */
export function skipsPermission(tool: Tool): string | undefined {
  return skippingPermission.get(tool);
}

/** The runtime's own tools that only show the session what it already has run without asking. */
export function runWithoutAsking(tool: Tool, why: string): void {
  skippingPermission.set(tool, why);
}

export interface ValidatedExternalTools {
  accepted: ExternalToolDefinition[];
  diagnostics: PoolDiagnostic[];
}

/**
 * Deduplicates (earliest wins) and rejects names and schemas a provider would refuse. A tool
 * without parameters is accepted as taking none, as Copilot CLI does.
 */
export function validateExternalTools(
  definitions: readonly ExternalToolDefinition[],
): ValidatedExternalTools {
  const accepted: ExternalToolDefinition[] = [];
  const diagnostics: PoolDiagnostic[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    if (!TOOL_NAME_PATTERN.test(definition.name)) {
      diagnostics.push({
        level: 'error',
        code: 'external_invalid_name',
        message: `External tool "${definition.name}" was rejected: names are 1–64 characters of letters, digits, "_" and "-".`,
        tool: definition.name,
      });
      continue;
    }
    if (seen.has(definition.name)) {
      diagnostics.push({
        level: 'warning',
        code: 'external_duplicate',
        message: `External tool "${definition.name}" is defined more than once; the first definition is used.`,
        tool: definition.name,
      });
      continue;
    }
    if (definition.parameters !== undefined && definition.parameters?.type !== 'object') {
      diagnostics.push({
        level: 'error',
        code: 'external_schema_not_object',
        message: `External tool "${definition.name}" was rejected: its parameters must be a JSON object schema ({ "type": "object", ... }), or absent for a tool that takes no arguments.`,
        tool: definition.name,
      });
      continue;
    }
    seen.add(definition.name);
    accepted.push(definition);
  }
  return { accepted, diagnostics };
}
