import { pathToFileURL } from 'node:url';
import { searchTools } from '@quiver/runtime';
import type { ToolDefinitionLite } from '@quiver/types';
import { frozenSearchTools } from './frozen-search/search-tools.js';
import { percent } from './measure.js';
import { loadCatalogDefinitions, loadQuerySet, type SearchQuery } from './search-catalog.js';
import { createPlainBm25 } from './search-plain-bm25.js';

/**
 * Tool search quality on the 598 real catalog tools: recall@1, recall@5 and MRR@10 over the
 * committed query set, its held-out set, and the requests collected from sources we did not write
 * (GitHub threads, issue titles, and questions from Q&A pages, forums and blog posts; each
 * collection split into a tuning and a held-out half, bench/data), for each searcher; then the mean time
 * per query at 1,000 and 10,000 tools, as a ratio to searchTools before tuning
 * (bench/frozen-search), measured in the same run.
 * `--misses` also prints the requests of the tuning sets a searcher did not answer in its top 5.
 * `QUIVER_SEARCH_SETS=tuning` (or `held-out`) limits the run to those sets (see SHOWN_SETS).
 */

type Search = (query: string, limit: number) => readonly ToolDefinitionLite[];
interface Searcher {
  name: string;
  /** The searcher the latency ratio is taken against: today's search. */
  latencyBaseline?: boolean;
  /** Builds whatever the searcher needs for this tool list (an index) and returns its query function. */
  prepare(tools: readonly ToolDefinitionLite[]): Search;
}

const SEARCHERS: Searcher[] = [
  { name: 'plain BM25 (baseline)', prepare: createPlainBm25 },
  {
    name: 'searchTools before tuning (frozen)',
    latencyBaseline: true,
    prepare: (tools) => (query, limit) => frozenSearchTools(query, tools, limit, 'keyword'),
  },
  { name: 'searchTools', prepare: (tools) => (query, limit) => searchTools(query, tools, limit, 'keyword') },
];

/**
 * Which sets a run prints: `QUIVER_SEARCH_SETS=tuning` only the sets ranking changes may be decided
 * on (the committed set and every `, tuning` half), `held-out` only the others (held-out halves and
 * blind sets), unset or `all` every set. Working on the ranking runs with `tuning`; `held-out` is run
 * once per kept change, and its figures are reported whatever they say.
 */
const SHOWN_SETS = parseShownSets(process.env.QUIVER_SEARCH_SETS);

function parseShownSets(value: string | undefined): 'tuning' | 'held-out' | 'all' {
  if (value === undefined || value === '' || value === 'all') return 'all';
  if (value === 'tuning' || value === 'held-out') return value;
  throw new Error(`QUIVER_SEARCH_SETS must be "tuning", "held-out" or "all", not "${value}"`);
}

function setIsShown(label: string, shown: 'tuning' | 'held-out' | 'all'): boolean {
  if (shown === 'all') return true;
  const tuning = label === 'committed' || label.endsWith(', tuning');
  return shown === 'tuning' ? tuning : !tuning;
}

/** Pool sizes the time per query is measured at (the catalog repeated under renamed servers). */
const LATENCY_SIZES = [1_000, 10_000] as const;

interface Quality {
  recallAt1: number;
  recallAt5: number;
  mrrAt10: number;
  misses: string[];
}

function measureQuality(search: Search, nameOf: Map<string, string>, queries: SearchQuery[]): Quality {
  let hitsAt1 = 0;
  let hitsAt5 = 0;
  let reciprocalRanks = 0;
  const misses: string[] = [];
  for (const { query, relevant } of queries) {
    const wanted = new Set(relevant.map((id) => nameOf.get(id)));
    const found = search(query, 10).map((tool) => tool.name);
    const rank = found.findIndex((name) => wanted.has(name));
    if (rank === 0) hitsAt1 += 1;
    if (rank >= 0 && rank < 5) hitsAt5 += 1;
    else misses.push(`${query} → ${found.slice(0, 3).join(', ')}`);
    if (rank >= 0) reciprocalRanks += 1 / (rank + 1);
  }
  return {
    recallAt1: hitsAt1 / queries.length,
    recallAt5: hitsAt5 / queries.length,
    mrrAt10: reciprocalRanks / queries.length,
    misses,
  };
}

/**
 * Mean CPU ms per query over every query of both sets for each searcher, the median of several
 * rounds. CPU time, not wall time: on a shared machine other work preempts the process, and
 * rounds alternate between the searchers so what remains falls on all of them alike.
 */
function msPerQuery(searches: readonly Search[], queries: readonly string[], rounds: number): number[] {
  for (const search of searches) for (const query of queries) search(query, 10);
  const samples = searches.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    searches.forEach((search, index) => {
      const start = process.cpuUsage();
      for (const query of queries) search(query, 10);
      const { user, system } = process.cpuUsage(start);
      (samples[index] as number[]).push((user + system) / 1000 / queries.length);
    });
  }
  return samples.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number);
}

export async function run(): Promise<void> {
  const catalog = loadCatalogDefinitions();
  const nameOf = new Map(catalog.map(({ id, definition }) => [id, definition.name]));
  const tools = catalog.map(({ definition }) => definition);
  const sets = [
    { label: 'committed', queries: loadQuerySet('tool-search-queries.json') },
    { label: 'held-out', queries: loadQuerySet('tool-search-held-out.json') },
    { label: 'GitHub requests, tuning', queries: loadQuerySet('tool-search-questions-tuning.json') },
    { label: 'GitHub requests, held-out', queries: loadQuerySet('tool-search-questions-held-out.json') },
    { label: 'fresh requests, held-out', queries: loadQuerySet('tool-search-fresh-held-out.json') },
    { label: 'GitHub requests 2, tuning', queries: loadQuerySet('tool-search-questions2-tuning.json') },
    { label: 'GitHub requests 2, held-out', queries: loadQuerySet('tool-search-questions2-held-out.json') },
    { label: 'GitHub requests 3, blind', queries: loadQuerySet('tool-search-questions3-blind.json') },
    { label: 'user requests 4, tuning', queries: loadQuerySet('tool-search-questions4-tuning.json') },
    { label: 'user requests 4, held-out', queries: loadQuerySet('tool-search-questions4-held-out.json') },
    { label: 'web questions 5, tuning', queries: loadQuerySet('tool-search-questions5-tuning.json') },
    { label: 'web questions 5, held-out', queries: loadQuerySet('tool-search-questions5-held-out.json') },
    { label: 'web requests 6, tuning', queries: loadQuerySet('tool-search-questions6-tuning.json') },
    { label: 'web requests 6, held-out', queries: loadQuerySet('tool-search-questions6-held-out.json') },
    { label: 'web requests 7, tuning', queries: loadQuerySet('tool-search-questions7-tuning.json') },
    { label: 'web requests 7, held-out', queries: loadQuerySet('tool-search-questions7-held-out.json') },
    { label: 'web requests 8, tuning', queries: loadQuerySet('tool-search-questions8-tuning.json') },
    { label: 'web requests 8, held-out', queries: loadQuerySet('tool-search-questions8-held-out.json') },
    { label: 'web requests 9, tuning', queries: loadQuerySet('tool-search-questions9-tuning.json') },
    { label: 'web requests 9, held-out', queries: loadQuerySet('tool-search-questions9-held-out.json') },
  ].filter(({ label }) => setIsShown(label, SHOWN_SETS));
  for (const { queries } of sets)
    for (const { relevant } of queries)
      for (const id of relevant) if (!nameOf.has(id)) throw new Error(`query set names unknown tool ${id}`);

  const rows: Record<string, string>[] = [];
  const missesBySearcher: [string, string[]][] = [];
  for (const searcher of SEARCHERS) {
    const search = searcher.prepare(tools);
    for (const { label, queries } of sets) {
      const quality = measureQuality(search, nameOf, queries);
      rows.push({
        searcher: searcher.name,
        set: `${label} (${queries.length})`,
        'recall@1': percent(quality.recallAt1),
        'recall@5': percent(quality.recallAt5),
        'MRR@10': quality.mrrAt10.toFixed(3),
      });
      if (label === 'committed' || label.endsWith(', tuning'))
        missesBySearcher.push([`${searcher.name} (${label})`, quality.misses]);
    }
  }
  console.table(rows);
  if (process.argv.includes('--misses'))
    for (const [name, misses] of missesBySearcher) console.log(`\n${name} misses:\n  ${misses.join('\n  ')}`);
  if (process.argv.includes('--quality-only')) return;

  const allQueries = sets.flatMap(({ queries }) => queries.map(({ query }) => query));
  const timings: Record<string, string | number>[] = [];
  for (const size of LATENCY_SIZES) {
    const pool = loadCatalogDefinitions(size).map(({ definition }) => definition);
    const prepared = SEARCHERS.map((searcher) => {
      globalThis.gc?.();
      const buildStart = process.cpuUsage();
      const search = searcher.prepare(pool);
      search('warm up', 10);
      const { user, system } = process.cpuUsage(buildStart);
      return { searcher: searcher.name, search, buildMs: (user + system) / 1000 };
    });
    globalThis.gc?.();
    const perQuery = msPerQuery(
      prepared.map(({ search }) => search),
      allQueries,
      21,
    );
    const baseline = perQuery[SEARCHERS.findIndex((searcher) => searcher.latencyBaseline)] ?? 1;
    prepared.forEach(({ searcher, buildMs }, index) => {
      const queryMs = perQuery[index] as number;
      timings.push({
        searcher,
        tools: size,
        'first query (index build) CPU ms': buildMs.toFixed(1),
        'CPU ms per query': queryMs.toFixed(4),
        'ratio to before tuning': `${(queryMs / baseline).toFixed(2)}×`,
      });
    });
  }
  console.table(timings);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
