import { loadCatalogDefinitions, loadQuerySet } from './search-catalog.js';
import { createToolSearchIndex, FIELDS, P } from './tune-tmp-index.js';
const catalog = loadCatalogDefinitions();
const nameOf = new Map(catalog.map(({ id, definition }) => [id, definition.name]));
const tools = catalog.map(({ definition }) => definition);
const queries = loadQuerySet('tool-search-queries.json');
function evaluate(): string {
  const index = createToolSearchIndex(tools);
  let r1 = 0, r5 = 0, mrr = 0;
  for (const { query, relevant } of queries) {
    const wanted = new Set(relevant.map((id) => nameOf.get(id)));
    const rank = index.search(query, 10).findIndex((tool) => wanted.has(tool.name));
    if (rank === 0) r1++;
    if (rank >= 0 && rank < 5) r5++;
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  return `r1 ${(100 * r1 / queries.length).toFixed(1)} r5 ${(100 * r5 / queries.length).toFixed(1)} mrr ${(mrr / queries.length).toFixed(3)}`;
}
const setups: [string, () => void][] = JSON.parse(process.env.SETUPS ?? '[]').map((code: string) => [code, new Function('P', 'F', code).bind(null, P, FIELDS)]);
console.log('base', evaluate());
for (const [code, apply] of setups) {
  const saved = JSON.stringify({ P, F: FIELDS });
  apply();
  console.log(code, evaluate());
  const back = JSON.parse(saved);
  Object.assign(P, back.P);
  FIELDS.splice(0, FIELDS.length, ...back.F);
}
