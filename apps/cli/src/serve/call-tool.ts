import type { ListToolsResult } from '@modelcontextprotocol/server';

type McpTool = ListToolsResult['tools'][number];

/**
 * The stable call path for clients that never re-list: a listed tool that runs any tool of the
 * session by name. The inner call goes through `session.execute` like a direct `tools/call`, so
 * agent sets, deny rules, pinned definitions, permissions and hooks all apply to the named tool.
 */
export const CALL_TOOL_NAME = 'call_tool';

export const callToolDefinition: McpTool = {
  name: CALL_TOOL_NAME,
  title: 'Call a found tool',
  description:
    'Runs a tool that tool_search found, by name, with its arguments. Use it when that tool is not in your tool list. The same permissions apply as when the tool is called directly.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The tool name tool_search returned.' },
      arguments: {
        type: 'object',
        description: "The tool's arguments, matching the inputSchema tool_search returned.",
      },
    },
    required: ['name'],
    additionalProperties: false,
  },
};

export type CallToolRequestArguments =
  | { ok: true; name: string; args: Record<string, unknown> }
  | { ok: false; error: string };

/** The inner call `call_tool` names, or what is wrong with its arguments. */
export function parseCallToolArguments(args: Record<string, unknown>): CallToolRequestArguments {
  const { name, arguments: inner = {} } = args;
  if (typeof name !== 'string' || name.length === 0)
    return {
      ok: false,
      error:
        'call_tool needs `name`: the name of a tool tool_search returned, e.g. {"name": "mcp__github__create_issue", "arguments": {…}}.',
    };
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner))
    return {
      ok: false,
      error: `call_tool's \`arguments\` must be an object with ${name}'s arguments, not ${Array.isArray(inner) ? 'an array' : typeof inner}.`,
    };
  const unknown = Object.keys(args).filter((key) => key !== 'name' && key !== 'arguments');
  if (unknown.length > 0)
    return {
      ok: false,
      error: `call_tool takes only \`name\` and \`arguments\`; put ${unknown.map((key) => `\`${key}\``).join(', ')} inside \`arguments\`.`,
    };
  return { ok: true, name, args: inner as Record<string, unknown> };
}
