import { analyzeText, TEXT_ANALYZER_VERSION, wordnetSynonyms } from '@quiver/text-search';
import type { SqlDialect, SqlParameter, SqlStore } from '@quiver/types';
import { postgresSearchVector } from './search/postgres-text-search.js';
import { SEARCH_COLUMNS } from './search/search-phrase.js';
import { searchTokens } from './search/search-tokens.js';
import { writeTransaction } from './write-transaction.js';

/** WordNet synonyms indexed per word of a memory, the closest first. */
const SYNONYMS_PER_WORD = 4;

/** What a memory is found by, one search column each (see schema-sqlite.ts). */
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

/** The search columns of a memory as SQL: their names, placeholders and values, for INSERT and UPDATE. */
export interface SearchColumnValues {
  names: string[];
  placeholders: string[];
  values: SqlParameter[];
}

/**
 * search_terms, search_tags, search_expansions and search_version; on PostgreSQL also the
 * tsvector that indexes them and their token count (FTS5 keeps both by itself on SQLite).
 */
export function searchColumnValues(
  dialect: SqlDialect,
  text: string,
  tags: readonly string[],
): SearchColumnValues {
  const columns = searchColumns(text, tags);
  const own = [columns.terms, columns.tags, columns.expansions];
  const result: SearchColumnValues = {
    names: [...SEARCH_COLUMNS, 'search_version'],
    placeholders: ['?', '?', '?', '?'],
    values: [...own, TEXT_ANALYZER_VERSION],
  };
  if (dialect === 'postgres') {
    result.names.push('search_length', 'search_vector');
    result.placeholders.push('?', '?::tsvector');
    result.values.push(
      own.reduce((sum, column) => sum + searchTokens(column).length, 0),
      postgresSearchVector(own),
    );
  }
  return result;
}

/** `name = placeholder, …` for an UPDATE. */
export function assignments(columns: SearchColumnValues): string {
  return columns.names.map((name, index) => `${name} = ${columns.placeholders[index]}`).join(', ');
}

/**
 * Re-indexes memories written by an older version (before analysed search, or with another
 * analyzer): their search columns are recomputed in one write transaction, so the search index
 * follows. A no-op, one indexed lookup, when every row is current.
 */
export async function reindexStaleMemories(store: SqlStore): Promise<number> {
  const stale = await store.get('SELECT 1 AS stale FROM memories WHERE search_version <> ? LIMIT 1', [
    TEXT_ANALYZER_VERSION,
  ]);
  if (!stale) return 0;
  return writeTransaction(store, async (tx) => {
    const rows = await tx.all<{ id: number; text: string; tags: string }>(
      'SELECT id, text, tags FROM memories WHERE search_version <> ?',
      [TEXT_ANALYZER_VERSION],
    );
    for (const row of rows) {
      const columns = searchColumnValues(store.dialect, row.text, JSON.parse(row.tags) as string[]);
      await tx.run(`UPDATE memories SET ${assignments(columns)} WHERE id = ?`, [...columns.values, row.id]);
    }
    return rows.length;
  });
}
