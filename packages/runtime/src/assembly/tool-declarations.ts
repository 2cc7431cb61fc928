/**
 * TypeScript declarations of tools, for a model that codes against them in the repl: argument
 * and result types from the JSON Schemas (enums as literal unions, optional fields, descriptions
 * as doc comments). Written here rather than with json-schema-to-typescript, which is async,
 * formats with prettier and resolves remote `$ref`s: assembly needs a few hundred characters per
 * tool, synchronously, from schemas that are data.
 */

type Schema = Record<string, unknown>;

interface Declarable {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_DEPTH = 6;
/** Characters of a tool's description kept in its doc comment. */
const DOC_CHARS = 300;

/** A property key as TypeScript needs it: bare when it is an identifier, quoted otherwise. */
function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Text safe inside a `/** … *\/` comment, on one line, at most `max` characters. */
function doc(text: unknown, max = DOC_CHARS): string {
  if (typeof text !== 'string') return '';
  const flat = text.replace(/\s+/g, ' ').replace(/\*\//g, '* /').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  return 'unknown';
}

/** The TypeScript type of a JSON Schema; `root` resolves local `$ref`s. */
export function schemaType(schema: unknown, root: Schema = {}, depth = 0): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (schema === null || typeof schema !== 'object') return 'unknown';
  if (depth > MAX_DEPTH) return 'unknown';
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const target = match ? (root[match[1] as string] as Schema | undefined)?.[match[2] as string] : undefined;
    return target === undefined ? 'unknown' : schemaType(target, root, depth + 1);
  }
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map(literal).join(' | ');
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const options = s[combinator];
    if (Array.isArray(options) && options.length > 0)
      return unique(options.map((option) => wrap(schemaType(option, root, depth + 1)))).join(' | ');
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0)
    return unique(s.allOf.map((part) => wrap(schemaType(part, root, depth + 1)))).join(' & ');
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : s.type === undefined ? [] : [s.type];
  if (types.length > 1)
    return unique(types.map((type) => wrap(schemaType({ ...s, type }, root, depth)))).join(' | ');
  const type =
    types[0] ?? (s.properties !== undefined ? 'object' : s.items !== undefined ? 'array' : undefined);
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(s.items))
        return `[${s.items.map((item) => schemaType(item, root, depth + 1)).join(', ')}]`;
      return `${wrap(schemaType(s.items, root, depth + 1))}[]`;
    }
    case 'object':
      return objectType(s, root, depth);
    default:
      return 'unknown';
  }
}

function objectType(s: Schema, root: Schema, depth: number): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const indent = '  '.repeat(depth + 1);
  const fields = Object.entries(properties).map(([name, property]) => {
    const comment = doc((property as Schema | undefined)?.description, 160);
    const line = `${key(name)}${required.has(name) ? '' : '?'}: ${schemaType(property, root, depth + 1)};`;
    return comment ? `${indent}/** ${comment} */\n${indent}${line}` : `${indent}${line}`;
  });
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false && (fields.length === 0 || typeof extra === 'object'))
    fields.push(
      `${indent}[key: string]: ${extra === true ? 'unknown' : schemaType(extra, root, depth + 1)};`,
    );
  if (fields.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${fields.join('\n')}\n${'  '.repeat(depth)}}`;
}

function wrap(type: string): string {
  return /^[\w$."[\]<>, ]+$/.test(type) && !type.includes(' | ') ? type : `(${type})`;
}

function unique(types: string[]): string[] {
  return [...new Set(types)];
}

/**
 * What a call resolves to inside a script: the structured result with the display text as
 * `text` when the tool declares one, else its text (or undeclared structured data).
 */
function resultType(tool: Declarable): string {
  if (tool.outputSchema === undefined) return 'string | { text: string; [key: string]: unknown }';
  const type = schemaType(tool.outputSchema, tool.outputSchema, 1);
  return `${wrap(type)} & { text: string }`;
}

/** One tool as a method of `tools`. */
export function declareTool(tool: Declarable): string {
  const comment = doc(tool.description);
  const args = schemaType(tool.parameters, tool.parameters, 1);
  const optional = !Array.isArray(tool.parameters.required) || tool.parameters.required.length === 0;
  const method = `  ${key(tool.name)}(args${optional ? '?' : ''}: ${args}): Promise<${resultType(tool)}>;`;
  return comment ? `  /** ${comment} */\n${method}` : method;
}

/** `declare const tools: { … }` for these tools. */
export function declareTools(tools: readonly Declarable[]): string {
  return `declare const tools: {\n${tools.map(declareTool).join('\n')}\n};`;
}
