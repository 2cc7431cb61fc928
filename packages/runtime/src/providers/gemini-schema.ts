/** The OpenAPI subset Gemini function declarations accept. */
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/**
 * Rewrites a JSON Schema into what Gemini accepts: unknown keywords dropped, `const` as a
 * one-value enum, `type: [x, "null"]` as `nullable`, local `$ref`s inlined (cycles cut to an
 * object), enums as strings.
 */
export function toGeminiSchema(
  schema: unknown,
  root: unknown = schema,
  seen: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  let node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (seen.has(ref)) return { type: 'object' };
    const target = resolveLocalRef(ref, root);
    return target === undefined ? { type: 'object' } : toGeminiSchema(target, root, new Set([...seen, ref]));
  }
  if ('const' in node && !('enum' in node)) node = { ...node, enum: [node.const] };
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!GEMINI_KEYWORDS.has(key)) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      result.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, toGeminiSchema(property, root, seen)]),
      );
    } else if (key === 'items') {
      result.items = toGeminiSchema(value, root, seen);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      result.anyOf = value.map((entry) => toGeminiSchema(entry, root, seen));
    } else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      if (types.length < value.length) result.nullable = true;
      if (types.length === 1) result.type = types[0];
      else if (types.length > 1) result.anyOf = types.map((type) => ({ type }));
    } else if (key === 'enum' && Array.isArray(value)) {
      result.enum = value.filter((entry) => entry !== null).map(String);
      if (result.type === undefined && node.type === undefined) result.type = 'string';
    } else {
      result[key] = value;
    }
  }
  if (Array.isArray(result.required) && result.properties) {
    const properties = result.properties as Record<string, unknown>;
    result.required = (result.required as unknown[]).filter(
      (name) => typeof name === 'string' && name in properties,
    );
  }
  return result;
}

function resolveLocalRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}
