import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDefinitionLite } from '@quiver/types';

export const CATALOGS = '/work/shared/data/mcp-catalogs';

interface CatalogFile {
  server: string;
  tools: { name: string; title?: string; description?: string; inputSchema?: Record<string, unknown> }[];
}

/** One catalog tool as the pool shows it to tool_search, keyed `<server>/<tool>` as the query sets are. */
export interface CatalogDefinition {
  id: string;
  definition: ToolDefinitionLite;
}

/**
 * The 598 real catalog tools as pool definitions: `mcp__<server>__<tool>` (the name assembly
 * gives MCP tools), title, description and input schema. `copies` > 1 repeats the catalog under
 * renamed servers, to measure search at 10,000 tools.
 */
export function loadCatalogDefinitions(size?: number): CatalogDefinition[] {
  const tools: CatalogDefinition[] = [];
  for (const file of readdirSync(CATALOGS)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const catalog = JSON.parse(readFileSync(join(CATALOGS, file), 'utf8')) as CatalogFile;
    for (const tool of catalog.tools) {
      tools.push({
        id: `${catalog.server}/${tool.name}`,
        definition: {
          name: `mcp__${catalog.server.replace(/[^a-zA-Z0-9-]/g, '-')}__${tool.name}`.slice(0, 64),
          description: tool.description ?? '',
          parameters: tool.inputSchema ?? { type: 'object', properties: {} },
          ...(tool.title ? { title: tool.title } : {}),
        },
      });
    }
  }
  if (size === undefined) return tools;
  return Array.from({ length: size }, (_, index) => {
    const original = tools[index % tools.length] as CatalogDefinition;
    const copy = Math.floor(index / tools.length);
    if (copy === 0) return original;
    const name = original.definition.name.replace(/^mcp__([^_]+)__/, `mcp__$1-${copy}__`);
    return { id: `${original.id}#${copy}`, definition: { ...original.definition, name } };
  });
}

export interface SearchQuery {
  query: string;
  relevant: string[];
}

export function loadQuerySet(file: string): SearchQuery[] {
  const set = JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as {
    queries: SearchQuery[];
  };
  return set.queries;
}
