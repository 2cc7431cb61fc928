import { fail, isQuiverError, ok, type Tool, type ToolDefinitionLite } from '@quiver/types';
import { z } from 'zod';
import { searchTools } from './search-tools.js';
import { renderToolSearchAnswer } from './tool-search-answer.js';

export const TOOL_SEARCH_TOOL_NAME = 'tool_search';

export interface ToolSearchToolOptions {
  /** The definitions to search (the session's pool, deferred ones included). */
  definitions(): readonly ToolDefinitionLite[];
  /** Called with the names found, so the next definitions show them expanded. */
  onFound?(names: string[]): void;
}

const input = z.object({
  query: z
    .string()
    .min(1)
    .describe('Keywords (e.g. "github pull request"), or /regex/ to match tool names and descriptions.'),
  mode: z
    .enum(['keyword', 'regex'])
    .optional()
    .describe('Force keyword or regex search; default: regex when the query is /…/.'),
  limit: z.number().int().min(1).max(50).optional().describe('How many tools to return (default 5).'),
});

/** The search tool added when tools are deferred: it returns full definitions of matching tools. */
export function createToolSearchTool(options: ToolSearchToolOptions): Tool<typeof input> {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    title: 'Search tools',
    description:
      'Finds tools that are available but not loaded yet. Returns their names, descriptions and parameters (listed in full from the next turn); call a found tool by its name right after, or through call_tool when that is offered and the tool is not in your list. Use keywords, or /regex/ to match names.',
    input,
    capabilities: {},
    annotations: { readOnly: true, idempotent: true },
    alwaysInclude: true,
    execute(args) {
      let found: ToolDefinitionLite[];
      try {
        const searchable = options
          .definitions()
          .filter((definition) => definition.name !== TOOL_SEARCH_TOOL_NAME);
        found = searchTools(args.query, searchable, args.limit ?? 5, args.mode);
      } catch (error) {
        if (isQuiverError(error)) return fail('input_invalid', error.message);
        throw error;
      }
      if (found.length === 0) return ok(`No tools match "${args.query}".`, { structured: { tools: [] } });
      const tools = found.map(({ deferLoading: _deferred, ...definition }) => definition);
      options.onFound?.(tools.map((tool) => tool.name));
      return ok(renderToolSearchAnswer(tools), { structured: { tools } });
    },
  };
}
