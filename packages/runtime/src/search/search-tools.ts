import { errorMessage, QuiverError, type ToolDefinitionLite } from '@quiver/types';
import { toolSearchIndexFor } from './tool-search-index.js';

export type ToolSearchMode = 'keyword' | 'regex';

const REGEX_QUERY = /^\/(.+)\/([a-z]*)$/s;

/**
 * The best `limit` tools for a query, best first. `/pattern/flags` (or mode 'regex') matches
 * names and descriptions in list order; anything else is a ranked keyword search over an index
 * cached per tool list. An invalid regex throws a QuiverError('usage').
 */
export function searchTools(
  query: string,
  tools: readonly ToolDefinitionLite[],
  limit = 5,
  mode?: ToolSearchMode,
): ToolDefinitionLite[] {
  const literal = REGEX_QUERY.exec(query.trim());
  if (mode === 'regex' || (mode === undefined && literal)) {
    const regex = compile(literal ? (literal[1] as string) : query, literal ? (literal[2] as string) : 'i');
    const found: ToolDefinitionLite[] = [];
    for (const tool of tools) {
      if (found.length >= limit) break;
      if (regex.test(tool.name) || regex.test(tool.description)) found.push(tool);
    }
    return found;
  }
  return toolSearchIndexFor(tools).search(query, limit);
}

function compile(pattern: string, flags: string): RegExp {
  try {
    return new RegExp(pattern, flags.replace(/[gy]/g, ''));
  } catch (error) {
    throw new QuiverError(
      'usage',
      `"${pattern}" is not a valid regular expression: ${errorMessage(error)}.`,
      {
        fix: 'Escape special characters, or search with plain keywords instead.',
      },
    );
  }
}
