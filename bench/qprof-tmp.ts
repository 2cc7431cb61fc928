import { createToolSearchIndex } from '../packages/runtime/src/search/tool-search-index.js';
import { frozenSearchTools } from './frozen-search/search-tools.js';
import { loadCatalogDefinitions, loadQuerySet } from './search-catalog.js';
const tools = loadCatalogDefinitions(10_000).map((c) => c.definition);
const index = createToolSearchIndex(tools);
const queries = [...loadQuerySet('tool-search-queries.json'), ...loadQuerySet('tool-search-held-out.json')].map((q) => q.query);
const time = (fn: (q: string) => unknown) => {
  for (const q of queries) fn(q);
  const samples: number[] = [];
  for (let r = 0; r < 9; r++) { const s = performance.now(); for (const q of queries) fn(q); samples.push((performance.now() - s) / queries.length); }
  return samples.sort((a, b) => a - b)[4] as number;
};
for (let i = 0; i < 2; i++) {
  const frozen = time((q) => frozenSearchTools(q, tools, 10, 'keyword'));
  const now = time((q) => index.search(q, 10));
  console.log(`frozen ${frozen.toFixed(4)} new ${now.toFixed(4)} ratio ${(now / frozen).toFixed(2)}`);
}
