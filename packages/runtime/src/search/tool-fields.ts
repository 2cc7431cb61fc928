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
// can do (`run_pipeline`); their text is capped so huge schemas do not dominate indexing.
function parameterText(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (node: unknown, depth: number) => {
    if (depth > 1 || typeof node !== 'object' || node === null || length > MAX_PARAMETER_TEXT) return;
    const properties = (node as { properties?: unknown }).properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
      const property = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
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
