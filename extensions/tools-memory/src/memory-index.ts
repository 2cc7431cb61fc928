import { analyzeText, TEXT_ANALYZER_VERSION, wordnetSynonyms } from '@quiver/text-search';
import type { SqlDatabase } from '@quiver/types';

/** WordNet synonyms indexed per word of a memory, the closest first. */
const SYNONYMS_PER_WORD = 4;

/** What a memory is found by, one FTS5 column each (see schema.ts). */
export interface MemorySearchColumns {
  /** Stems and concept tokens of the text. */
  terms: string;
  /** The same for the tags. */
  tags: string;
  /** WordNet synonyms of the text's and tags' stems: "deploy" finds a memory about "releases". */
  expansions: string;
}

export function searchColumns(text: string, tags: readonly string[]): MemorySearchColumns {
  const terms = analyzeText(text);
  const tagTerms = analyzeText(tags.join(' '));
  const own = new Set([...terms, ...tagTerms]);
  const expansions = new Set<string>();
  for (const term of own)
    for (const synonym of wordnetSynonyms(term).slice(0, SYNONYMS_PER_WORD))
      if (!own.has(synonym)) expansions.add(synonym);
  return { terms: terms.join(' '), tags: tagTerms.join(' '), expansions: [...expansions].join(' ') };
}

/** The values of search_terms, search_tags, search_expansions and search_version for a memory. */
export function searchColumnValues(text: string, tags: readonly string[]): [string, string, string, number] {
  const columns = searchColumns(text, tags);
  return [columns.terms, columns.tags, columns.expansions, TEXT_ANALYZER_VERSION];
}

/**
 * Re-indexes memories written by an older version (before analysed search, or with another
 * analyzer): their search columns are recomputed in one write transaction, so the FTS index
 * follows through the update trigger. A no-op, one indexed lookup, when every row is current.
 */
export function reindexStaleMemories(database: SqlDatabase): number {
  const stale = () =>
    database.prepare('SELECT 1 FROM memories WHERE search_version <> ? LIMIT 1').get(TEXT_ANALYZER_VERSION);
  if (!stale()) return 0;
  return database
    .transaction(() => {
      const rows = database
        .prepare('SELECT id, text, tags FROM memories WHERE search_version <> ?')
        .all(TEXT_ANALYZER_VERSION) as { id: number; text: string; tags: string }[];
      const update = database.prepare(
        `UPDATE memories SET search_terms = ?, search_tags = ?, search_expansions = ?, search_version = ?
         WHERE id = ?`,
      );
      for (const row of rows)
        update.run(...searchColumnValues(row.text, JSON.parse(row.tags) as string[]), row.id);
      return rows.length;
    })
    .immediate();
}
