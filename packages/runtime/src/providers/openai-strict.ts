/** Keywords OpenAI strict mode (structured outputs) rejects. */
const UNSUPPORTED_KEYWORDS = new Set([
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
]);

/**
 * True when OpenAI can enforce the schema strictly: every object lists all its properties as
 * required and sets additionalProperties false, and no unsupported keyword appears. Otherwise
 * the tool is sent non-strict rather than rewritten, since rewriting changes its meaning.
 */
export function allowsOpenAiStrict(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || (schema as Record<string, unknown>).type !== 'object')
    return false;
  return strictNode(schema);
}

function strictNode(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(strictNode);
  if (typeof node !== 'object' || node === null) return true;
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) if (UNSUPPORTED_KEYWORDS.has(key)) return false;
  const isObject =
    record.type === 'object' ||
    (Array.isArray(record.type) && record.type.includes('object')) ||
    'properties' in record;
  if (isObject) {
    if (record.additionalProperties !== false) return false;
    const properties = (record.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(record.required) ? record.required : []);
    if (Object.keys(properties).some((key) => !required.has(key))) return false;
    if (!Object.values(properties).every(strictNode)) return false;
  }
  for (const key of ['items', 'anyOf', '$defs', 'definitions'] as const) {
    const child = record[key];
    if (child === undefined) continue;
    if (key === '$defs' || key === 'definitions') {
      if (!Object.values(child as Record<string, unknown>).every(strictNode)) return false;
    } else if (!strictNode(child)) return false;
  }
  return true;
}
