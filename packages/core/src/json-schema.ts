import { errorMessage, QuiverError } from '@quiver/types';
import { z } from 'zod';
import { isClosedObjectSchema } from './unknown-arguments.js';

/**
 * The JSON Schema a model sees for a zod input schema (draft 2020-12, input side: fields with
 * defaults are optional for the caller; a closed object says `additionalProperties: false`). Throws `config_invalid` when zod cannot express it.
 */
export function deriveJsonSchema(schema: z.ZodType, toolName?: string): Record<string, unknown> {
  const subject = toolName === undefined ? 'An input schema' : `The input schema of tool "${toolName}"`;
  let derived: Record<string, unknown>;
  try {
    derived = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  } catch (error) {
    const reason = errorMessage(error);
    throw new QuiverError('config_invalid', `${subject} cannot be expressed as JSON Schema: ${reason}`, {
      fix: 'Use JSON-representable zod types (no bigint, date, symbol, function or custom types), or pass parametersJsonSchema.',
      details: { tool: toolName },
      cause: error,
    });
  }
  const { $schema: _dropped, ...parameters } = derived;
  // The call refuses undeclared keys (validate-args), so the model is told so up front.
  if (parameters.additionalProperties === undefined && isClosedObjectSchema(schema))
    parameters.additionalProperties = false;
  return parameters;
}
