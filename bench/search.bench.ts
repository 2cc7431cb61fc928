import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultToolRegistry } from '@quiver/core';
import { assembleToolPool, createToolSearchIndex, estimateTokens, type SessionPolicy } from '@quiver/runtime';
import { ok, type Tool, type ToolDefinitionLite } from '@quiver/types';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { p50sMs, round } from './measure.js';

/**
 * Keyword tool search over 10 to 10,000 real MCP tool definitions (the shared catalogs, repeated
 * under renamed servers past 598): index build time, and query time against a naive baseline
 * that scans every name and description for the query words. Then the definitions' token
 * estimate for the whole catalog with and without deferred loading.
 */

const SIZES = [10, 100, 1_000, 10_000] as const;
const QUERIES = [
  'create pull request',
  'take a screenshot of the page',
  'kubernetes pod logs',
  'send slack message',
];
const CATALOGS = '/work/shared/data/mcp-catalogs';

interface CatalogTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

function loadCatalogs(): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (const file of readdirSync(CATALOGS)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const catalog = JSON.parse(readFileSync(join(CATALOGS, file), 'utf8')) as {
      server: string;
      tools: Omit<CatalogTool, 'server'>[];
    };
    for (const tool of catalog.tools)
      tools.push({ ...tool, server: catalog.server, description: tool.description ?? tool.name });
  }
  return tools;
}

function definitionsOfSize(catalog: readonly CatalogTool[], size: number): ToolDefinitionLite[] {
  return Array.from({ length: size }, (_, index) => {
    const tool = catalog[index % catalog.length] as CatalogTool;
    const copy = Math.floor(index / catalog.length);
    return {
      name: `mcp__${tool.server}${copy ? `-${copy}` : ''}__${tool.name}`,
      description: tool.description,
      parameters: tool.inputSchema,
    };
  });
}

function naiveSearch(
  query: string,
  tools: readonly ToolDefinitionLite[],
  limit: number,
): ToolDefinitionLite[] {
  const words = query.toLowerCase().split(/\s+/);
  const scored: { tool: ToolDefinitionLite; score: number }[] = [];
  for (const tool of tools) {
    const text = `${tool.name} ${tool.description}`.toLowerCase();
    let score = 0;
    for (const word of words) if (text.includes(word)) score += 1;
    if (score > 0) scored.push({ tool, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((entry) => entry.tool);
}

export async function run(): Promise<void> {
  const catalog = loadCatalogs();
  const rows: Array<Record<string, string | number>> = [];
  for (const size of SIZES) {
    const tools = definitionsOfSize(catalog, size);
    const buildStart = performance.now();
    const index = createToolSearchIndex(tools);
    const buildMs = performance.now() - buildStart;
    let query = 0;
    const bench = new Bench({ time: 400, warmupTime: 100 });
    bench
      .add(`baseline: naive scan ×${size}`, () => {
        naiveSearch(QUERIES[query++ % QUERIES.length] as string, tools, 5);
      })
      .add(`indexed search ×${size}`, () => {
        index.search(QUERIES[query++ % QUERIES.length] as string, 5);
      });
    globalThis.gc?.();
    await bench.run();
    const [naive, indexed] = p50sMs(bench);
    if (naive === undefined || indexed === undefined) throw new Error('missing benchmark results');
    rows.push({
      tools: size,
      'index build ms': round(buildMs, 3),
      'naive scan median ms': round(naive, 3),
      'indexed query median ms': round(indexed, 3),
      'naive / indexed': `${round(naive / indexed, 3)}×`,
      'under 1 ms': indexed < 1 ? 'yes' : 'NO',
    });
  }
  console.table(rows);
  reportTokens(catalog);
}

function reportTokens(catalog: readonly CatalogTool[]): void {
  const registry = new DefaultToolRegistry();
  const seen = new Set<string>();
  for (const entry of catalog) {
    const server = entry.server.replace(/[^a-zA-Z0-9-]/g, '-');
    const name = `mcp__${server}__${entry.name}`.slice(0, 64);
    if (seen.has(name)) continue;
    seen.add(name);
    const tool: Tool = {
      name,
      description: entry.description,
      input: z.record(z.string(), z.unknown()),
      parametersJsonSchema: entry.inputSchema,
      capabilities: {},
      mcp: { server, originalName: entry.name },
      execute: () => ok(''),
    };
    registry.register(tool);
  }
  const servers = new Set(catalog.map((entry) => entry.server.replace(/[^a-zA-Z0-9-]/g, '-')));
  const policy = (enabled: SessionPolicy['deferLoading']['enabled']): SessionPolicy => ({
    personalityId: 'bench',
    plugins: [],
    mcpServers: Object.fromEntries([...servers].map((server) => [server, {}])),
    permissions: {},
    agents: {},
    budget: { resultChars: 80_000 },
    deferLoading: { enabled },
  });
  const eager = assembleToolPool({
    registered: registry.list(),
    policy: policy(false),
    options: { model: 'claude-sonnet-4-5' },
  });
  const deferred = assembleToolPool({
    registered: registry.list(),
    policy: policy('auto'),
    options: { model: 'claude-sonnet-4-5' },
  });
  const eagerTokens = estimateTokens(eager.definitions);
  const loadedTokens = estimateTokens(deferred.definitions.filter((definition) => !definition.deferLoading));
  console.table([
    {
      pool: `${eager.definitions.length} catalog MCP tools, all loaded`,
      'estimated tokens': eagerTokens,
      ratio: '1×',
    },
    {
      pool: `same, deferred (tool_search + ${deferred.definitions.filter((definition) => !definition.deferLoading).length - 1} loaded)`,
      'estimated tokens': loadedTokens,
      ratio: `${round(loadedTokens / eagerTokens, 3)}×`,
    },
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
