import { pathToFileURL } from 'node:url';
import { memorySave, memorySearch, type ScoredMemory } from '@quiver/tools-memory';
import type { StorageScope } from '@quiver/types';
import { systemToolsPresent } from './not-run.js';
import { loadMemorySet, type MemoryQuery } from './search-memory-set.js';
import {
  type BenchStorage,
  openPostgresBenchStorage,
  openSqliteBenchStorage,
} from './search-memory-storage.js';

/**
 * Memory search quality on the committed memory set (bench/data): the memories are saved with
 * memory_save, spread over the three scopes, then every request is recalled with memory_search.
 * Runs on SQLite (FTS5, the baseline) and, where postgres and initdb are on PATH, on a throwaway
 * PostgreSQL server (full-text search, BM25 computed as FTS5 does). Prints recall@1, recall@3
 * and MRR@10 for the committed and the held-out requests on each backend, PostgreSQL's
 * difference in points, and the time per memory_search call as a ratio to SQLite's in this run.
 */

const SCOPES: StorageScope[] = ['personality', 'project', 'user'];

interface Quality {
  recallAt1: number;
  recallAt3: number;
  mrrAt10: number;
}

interface BackendFigures {
  quality: Record<'committed' | 'held-out', Quality>;
  msPerSearch: number;
  misses: string[];
}

async function measure(storage: BenchStorage): Promise<BackendFigures> {
  const { memories, committed, heldOut } = loadMemorySet();
  const keyById = new Map<string, string>();
  for (const [index, memory] of memories.entries()) {
    const result = await storage.call(memorySave, {
      text: memory.text,
      tags: memory.tags,
      scope: SCOPES[index % SCOPES.length],
    });
    if (!result.ok) throw new Error(`saving memory ${memory.key} failed: ${result.error}`);
    keyById.set((result.structured as { memory: { id: string } }).memory.id, memory.key);
  }
  const misses: string[] = [];
  let searchMs = 0;
  let searches = 0;
  const score = async (label: string, queries: MemoryQuery[]): Promise<Quality> => {
    let at1 = 0;
    let at3 = 0;
    let reciprocal = 0;
    for (const { query, relevant } of queries) {
      const start = performance.now();
      const result = await storage.call(memorySearch, { query, limit: 10 });
      searchMs += performance.now() - start;
      searches += 1;
      const found = result.ok ? (result.structured as { results: ScoredMemory[] }).results : [];
      const keys = found.map((memory) => keyById.get(memory.id));
      const rank = keys.findIndex((key) => key !== undefined && relevant.includes(key));
      if (rank === 0) at1 += 1;
      if (rank >= 0 && rank < 3) at3 += 1;
      else if (label === 'committed') misses.push(`${query} → ${keys.slice(0, 3).join(', ')}`);
      if (rank >= 0) reciprocal += 1 / (rank + 1);
    }
    return {
      recallAt1: at1 / queries.length,
      recallAt3: at3 / queries.length,
      mrrAt10: reciprocal / queries.length,
    };
  };
  const quality = {
    committed: await score('committed', committed),
    'held-out': await score('held-out', heldOut),
  };
  return { quality, msPerSearch: searchMs / searches, misses };
}

async function measureOn(open: () => Promise<BenchStorage>): Promise<BackendFigures> {
  const storage = await open();
  try {
    return await measure(storage);
  } finally {
    await storage.dispose();
  }
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const points = (value: number) => `${value >= 0 ? '+' : ''}${(100 * value).toFixed(1)}`;

export async function run(): Promise<void> {
  const { memories, committed, heldOut } = loadMemorySet();
  const figures: [backend: string, BackendFigures][] = [
    ['SQLite FTS5', await measureOn(openSqliteBenchStorage)],
  ];
  if (systemToolsPresent('search-memory.bench.ts on PostgreSQL', ['postgres', 'initdb']))
    figures.push(['PostgreSQL', await measureOn(openPostgresBenchStorage)]);
  const sets = [
    ['committed', committed.length],
    ['held-out', heldOut.length],
  ] as const;
  console.table(
    figures.flatMap(([backend, { quality }]) =>
      sets.map(([set, count]) => ({
        backend,
        set: `${set} (${count})`,
        'recall@1': percent(quality[set].recallAt1),
        'recall@3': percent(quality[set].recallAt3),
        'MRR@10': quality[set].mrrAt10.toFixed(3),
      })),
    ),
  );
  const [, baseline] = figures[0]!;
  for (const [backend, backendFigures] of figures.slice(1)) {
    for (const [set] of sets) {
      const own = backendFigures.quality[set];
      const base = baseline.quality[set];
      console.log(
        `${backend} − SQLite, ${set}: recall@1 ${points(own.recallAt1 - base.recallAt1)} points, ` +
          `recall@3 ${points(own.recallAt3 - base.recallAt3)} points, MRR@10 ${points(own.mrrAt10 - base.mrrAt10)} points`,
      );
    }
  }
  for (const [backend, { msPerSearch }] of figures) {
    console.log(
      `memory_search over ${memories.length} memories on ${backend}: ${msPerSearch.toFixed(2)} ms per call` +
        (backend === figures[0]![0]
          ? ' (baseline)'
          : `, ${(msPerSearch / baseline.msPerSearch).toFixed(2)}× SQLite`),
    );
  }
  if (process.argv.includes('--misses'))
    for (const [backend, { misses }] of figures)
      console.log(`misses on ${backend}:\n  ${misses.join('\n  ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
