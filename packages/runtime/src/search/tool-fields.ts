import type { ToolDefinitionLite } from '@quiver/types';

/** The parts of a definition search looks at, each a field with its own weight. */
export interface ToolFields {
  /** The tool's own name (`create_pull_request` of `mcp__server-github__create_pull_request`). */
  name: string;
  /** The MCP server part of the name; empty for built-in and external tools. */
  server: string;
  title: string;
  description: string;
  /** The description's first sentence: what the tool does, before how to use it. */
  summary: string;
  /** Parameter names, their descriptions and enum values, one level deep. */
  parameters: string;
}

const MCP_NAME = /^mcp__(.+?)__(.+)$/;
const MAX_PARAMETER_TEXT = 4_000;

export function toolFields(tool: ToolDefinitionLite): ToolFields {
  const mcp = MCP_NAME.exec(tool.name);
  return {
    name: mcp ? (mcp[2] as string) : tool.name,
    server: mcp ? (mcp[1] as string) : '',
    title: tool.title ?? '',
    description: tool.description,
    summary: firstSentence(tool.description),
    parameters: parameterText(tool.parameters),
  };
}

// Parameters say what a tool acts on (`repo`, `channel`, `podName`) and action enums what it
// can do (`run_pipeline`); their text is capped so huge schemas do not dominate indexing. A
// parameter given as alternatives (`anyOf`, `oneOf`, `allOf`) or as a reference into the schema's
// own definitions (`$ref: #/$defs/…`) is read through them, each definition once: Notion's block
// children name `paragraph` and `heading_1` only in the definitions their items point to.
function parameterText(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  let length = 0;
  const seen = new Set<unknown>();
  const resolve = (node: unknown): unknown => {
    const ref = (node as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    let target: unknown = schema;
    for (const key of ref.slice(2).split('/'))
      target =
        typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[key] : undefined;
    return target;
  };
  const visit = (raw: unknown, depth: number) => {
    const node = resolve(raw);
    if (
      depth > 1 ||
      typeof node !== 'object' ||
      node === null ||
      length > MAX_PARAMETER_TEXT ||
      seen.has(node)
    )
      return;
    seen.add(node);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const alternatives = (node as Record<string, unknown>)[key];
      if (Array.isArray(alternatives)) for (const alternative of alternatives) visit(alternative, depth);
    }
    const properties = (node as { properties?: unknown }).properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
      const resolved = resolve(value);
      const property = (typeof resolved === 'object' && resolved !== null ? resolved : {}) as Record<
        string,
        unknown
      >;
      const text = [
        key,
        typeof property.description === 'string' ? property.description : '',
        Array.isArray(property.enum)
          ? property.enum.filter((item) => typeof item === 'string').join(' ')
          : '',
      ].join(' ');
      parts.push(text);
      length += text.length;
      visit(property, depth + 1);
      visit(property.items, depth + 1);
    }
  };
  visit(schema, 0);
  return parts.join(' ').slice(0, MAX_PARAMETER_TEXT);
}

function firstSentence(text: string): string {
  const trimmed = text.trimStart();
  const end = trimmed.search(/[.!?](\s|$)|\n/);
  return (end < 0 ? trimmed : trimmed.slice(0, end)).slice(0, 300);
}
