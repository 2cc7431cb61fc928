import { loadCatalogDefinitions, loadQuerySet } from './search-catalog.js';
import { createToolSearchIndex } from './tune-tmp-index.js';
import { analyzeQuery } from '../packages/text-search/src/index.js';
const catalog = loadCatalogDefinitions();
const nameOf = new Map(catalog.map(({ id, definition }) => [id, definition.name]));
const index = createToolSearchIndex(catalog.map(({ definition }) => definition));
for (const { query, relevant } of loadQuerySet(process.argv[2] ?? 'tool-search-queries.json')) {
  const wanted = new Set(relevant.map((id) => nameOf.get(id)));
  const found = index.search(query, 100);
  const rank = found.findIndex((tool) => wanted.has(tool.name));
  if (rank >= 0 && rank < 5) continue;
  console.log(`${rank === -1 ? '>100' : rank + 1}\t${query}\t[${analyzeQuery(query).map((g) => g.map((t) => t.term).join('|')).join(' ')}]\t→ ${found.slice(0, 2).map((t) => t.name.replace(/^mcp__/, '')).join(', ')}`);
}
