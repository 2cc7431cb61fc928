import type { ToolDefinitionLite } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { toDefinition } from '../src/assembly/definitions.js';
import type { PoolTool } from '../src/contracts.js';
import { searchTools } from '../src/search/search-tools.js';
import { loadCatalogTools } from './assembly-helpers.js';

/** The 598 real tools of the shared catalogs, as the pool gives them to tool_search. */
const catalog = loadCatalogTools().map((tool): ToolDefinitionLite => {
  const pooled: PoolTool = {
    name: tool.name,
    source: 'mcp',
    tool,
    deferred: true,
    parameters: tool.parametersJsonSchema ?? {},
  };
  return toDefinition(pooled);
});

function rankOf(query: string, wanted: readonly string[]): number {
  return searchTools(query, catalog, 10, 'keyword').findIndex((tool) => wanted.includes(tool.name));
}

describe('tool search: what a tool is named and first says for itself decides', () => {
  // Every MongoDB tool's text says "collection" and "database"; the ones whose descriptions go on
  // about them (rename, insert, aggregate) ranked the listing 7th when the whole description
  // weighed as much as its first sentence.
  it('finds the collection listing when asked which collections a database holds', () => {
    const rank = rankOf('what collections does the mongo database hold', [
      'mcp__mongodb-mcp-server__list-collections',
    ]);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(5);
  });

  // A tool whose name, first sentence and description all say "commit" keeps more of its lead over
  // tools that say it once beside "branch" (get_branch, get_commit): with K1 1.6 the commit
  // listing ranked 7th.
  it('finds the commit listing when asked for the last commit messages of a branch', () => {
    const rank = rankOf(
      'get the last 5 commit messages from the master branch so I can write release notes',
      ['mcp__server-github__list_commits'],
    );
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(5);
  });
});
