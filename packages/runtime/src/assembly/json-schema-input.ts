import { z } from 'zod';

/**
 * A permissive zod schema for a JSON Schema: it checks required keys and basic types (string,
 * number, integer, boolean, array, object, null, enum) and lets everything else through, so an
 * external tool's own validation stays the authority on the finer rules.
 */
export function jsonSchemaToPermissiveZod(schema: unknown): z.ZodType {
  if (typeof schema !== 'object' || schema === null) return z.unknown();
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    const allowed = node.enum;
    return z.unknown().refine((value) => allowed.some((entry) => Object.is(entry, value)), {
      message: `Expected one of ${JSON.stringify(allowed)}`,
    });
  }
  const types = Array.isArray(node.type) ? node.type : typeof node.type === 'string' ? [node.type] : [];
  if (types.length === 0) return z.unknown();
  const variants = types.map((type) => schemaForType(String(type), node));
  if (variants.length === 1) return variants[0] as z.ZodType;
  return z.union(variants as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

function schemaForType(type: string, node: Record<string, unknown>): z.ZodType {
  switch (type) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'integer':
      return z.number().int();
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'array':
      return z.array(jsonSchemaToPermissiveZod(node.items));
    case 'object':
      return objectSchema(node);
    default:
      return z.unknown();
  }
}

function objectSchema(node: Record<string, unknown>): z.ZodType {
  const properties = (
    typeof node.properties === 'object' && node.properties !== null ? node.properties : {}
  ) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(properties)) {
    const inner = jsonSchemaToPermissiveZod(property);
    shape[key] = required.has(key) ? inner : inner.optional();
  }
  for (const key of required)
    if (!(key in shape))
      shape[key] = z.unknown().refine((value) => value !== undefined, { message: 'Required' });
  return z.looseObject(shape);
}
