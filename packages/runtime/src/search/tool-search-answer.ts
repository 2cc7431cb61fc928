import type { ToolDefinitionLite } from '@quiver/types';

/** A tool's description past this is clipped in the answer; the tool list shows it whole next turn. */
const MAX_DESCRIPTION_CHARS = 320;
const MAX_PARAMETER_DESCRIPTION_CHARS = 110;
/** Nested objects are spelled out this deep; deeper ones read `object`. */
const MAX_TYPE_DEPTH = 2;
const MAX_ENUM_VALUES = 12;

type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, limit: number): string {
  const line = oneLine(text);
  if (line.length <= limit) return line;
  const cut = line.slice(0, limit);
  const sentenceEnd = cut.lastIndexOf('. ');
  return `${sentenceEnd > limit / 2 ? cut.slice(0, sentenceEnd + 1) : cut.trimEnd()}…`;
}

/** `owner_name` and `ownerName` both read "owner name". */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase()
    .trim();
}

function normalized(text: string): string {
  return words(text)
    .replace(/[^a-z0-9 ]/g, '')
    .replace(/^(the|a|an) /, '')
    .trim();
}

/** A type in a few characters: `string`, `"a" | "b"`, `number[]`, `{ path: string, mode?: string }`. */
export function compactType(schema: Schema | undefined, depth = 0): string {
  if (schema === undefined) return 'any';
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.slice(0, MAX_ENUM_VALUES).map((value) => JSON.stringify(value));
    if (schema.enum.length > MAX_ENUM_VALUES) values.push('…');
    return values.join(' | ');
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const types = [...new Set(options.map((option) => compactType(asSchema(option), depth)))];
      return types.join(' | ');
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return compactType(asSchema(schema.allOf[0]), depth);
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') {
    const items = compactType(asSchema(schema.items), depth);
    return items.includes(' | ') ? `(${items})[]` : `${items}[]`;
  }
  const properties = asSchema(schema.properties);
  if ((type === 'object' || properties) && properties !== undefined && Object.keys(properties).length > 0) {
    if (depth >= MAX_TYPE_DEPTH) return 'object';
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields = Object.entries(properties).map(
      ([name, value]) =>
        `${name}${required.has(name) ? '' : '?'}: ${compactType(asSchema(value), depth + 1)}`,
    );
    return `{ ${fields.join(', ')} }`;
  }
  return typeof type === 'string' ? type : 'any';
}

/**
 * One line per parameter: `name?: type — description`. A description that only repeats the
 * parameter's name or the tool's description is left out; defaults are kept.
 */
function parameterLines(parameters: Schema, toolDescription: string): string[] {
  const properties = asSchema(parameters.properties) ?? {};
  const required = new Set(Array.isArray(parameters.required) ? parameters.required : []);
  const seen = new Set([normalized(toolDescription)]);
  return Object.entries(properties).map(([name, value]) => {
    const schema = asSchema(value) ?? {};
    const type = compactType(schema, 1);
    const description = typeof schema.description === 'string' ? schema.description : '';
    const key = normalized(description);
    const repeats = key === '' || key === normalized(name) || seen.has(key);
    seen.add(key);
    const defaultNote = 'default' in schema ? ` (default ${JSON.stringify(schema.default)})` : '';
    const text = repeats ? '' : ` — ${clip(description, MAX_PARAMETER_DESCRIPTION_CHARS)}`;
    return `  ${name}${required.has(name) ? '' : '?'}: ${type}${defaultNote}${text}`;
  });
}

/**
 * The text tool_search answers with: each found tool's name, its description (clipped) and its
 * parameters one a line, types spelled compactly. The found tools are listed in full from the
 * next turn on, so the answer does not repeat their JSON Schemas; the structured part of the
 * result keeps the full definitions for programs.
 */
export function renderToolSearchAnswer(tools: readonly ToolDefinitionLite[]): string {
  const blocks = tools.map((tool) => {
    const parameters = asSchema(tool.parameters) ?? {};
    const lines = [`${tool.name} — ${clip(tool.description, MAX_DESCRIPTION_CHARS)}`];
    const parameterList = parameterLines(parameters, tool.description);
    lines.push(...(parameterList.length > 0 ? parameterList : ['  (no parameters)']));
    return lines.join('\n');
  });
  const heading = `Found ${tools.length} tool${tools.length === 1 ? '' : 's'}; call one by its name (\`?\` marks an optional parameter):`;
  return [heading, ...blocks].join('\n');
}
