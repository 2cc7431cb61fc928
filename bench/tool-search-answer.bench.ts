import { pathToFileURL } from 'node:url';
import { createToolSearchTool } from '@quiver/runtime';
import { quantile } from './measure.js';
import { loadCatalogDefinitions, loadQuerySet } from './search-catalog.js';

/**
 * Tokens per tool_search answer (characters / 4, as estimateTokens counts them) over every query
 * of the four query sets of bench/data on the 598 catalog tools, limit 5: the answer as the tool
 * gives it now against the pretty-printed JSON definitions it gave before, in the same run.
 */

const tokens = (text: string) => Math.ceil(text.length / 4);

export async function run(): Promise<void> {
  const tools = loadCatalogDefinitions().map(({ definition }) => ({ ...definition, deferLoading: true }));
  const search = createToolSearchTool({ definitions: () => tools });
  const queries = [
    ...loadQuerySet('tool-search-queries.json'),
    ...loadQuerySet('tool-search-held-out.json'),
    ...loadQuerySet('tool-search-questions-tuning.json'),
    ...loadQuerySet('tool-search-questions-held-out.json'),
  ].map(({ query }) => query);
  const before: number[] = [];
  const after: number[] = [];
  for (const query of queries) {
    const result = await search.execute({ query }, {} as never);
    if (!result.ok) throw new Error(`tool_search failed for "${query}": ${result.error}`);
    const found = (result.structured as { tools: unknown[] }).tools;
    if (found.length === 0) continue;
    before.push(tokens(JSON.stringify(found, null, 2)));
    after.push(tokens(result.value));
  }
  const row = (label: string, values: number[]) => ({
    answer: label,
    answers: values.length,
    'median tokens': quantile(values, 0.5),
    'p90 tokens': quantile(values, 0.9),
    max: Math.max(...values),
  });
  console.table([row('full definitions, pretty JSON (before)', before), row('compact answer (now)', after)]);
  console.log(
    `median tokens per answer: ${quantile(after, 0.5)} vs ${quantile(before, 0.5)} before (${(
      (quantile(after, 0.5) / quantile(before, 0.5)) * 100
    ).toFixed(0)}%)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
