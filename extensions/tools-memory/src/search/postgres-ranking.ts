import type { SqlParameter, SqlQueryable } from '@quiver/types';
import { MEMORY_COLUMNS, type MemoryRow } from '../memory-row.js';
import { type CollectionStatistics, fts5Bm25, tokenPhrases } from './fts5-bm25.js';
import { anyPhraseQuery, fitsLexeme, phraseQuery } from './postgres-text-search.js';
import type { ColumnWeights, SearchPhrase } from './search-phrase.js';
import { searchTokens } from './search-tokens.js';

type CandidateRow = MemoryRow & {
  search_terms: string;
  search_tags: string;
  search_expansions: string;
  total_rows: number | string;
  total_tokens: number | string;
  [hit: `hit_${number}`]: number | string;
};

/**
 * Memories matching any phrase, best first, ranked as SQLite ranks them: the GIN index finds
 * the rows whose tsvector matches, one statement (one snapshot) also counts the scope's rows,
 * tokens and the rows each phrase matches, and fts5Bm25 scores each candidate from its own
 * tokens. Every candidate is scored, so a scope's matches cross the wire once per search: fine
 * for memory sets of thousands, the scale the per-scope limits allow by default.
 */
export async function rankOnPostgres(
  db: SqlQueryable,
  phrases: readonly SearchPhrase[],
  weights: ColumnWeights,
  filter: { sql: string; parameters: readonly SqlParameter[] },
  limit: number,
): Promise<(MemoryRow & { score: number })[]> {
  const tokens = tokenPhrases(phrases).filter((phrase) => phrase.tokens.every(fitsLexeme));
  if (tokens.length === 0) return [];
  const queries = tokens.map(phraseQuery);
  const hits = queries
    .map((_, index) => `(SELECT count(*) FROM memories WHERE search_vector @@ ?::tsquery) AS hit_${index}`)
    .join(', ');
  const rows = await db.all<CandidateRow>(
    `SELECT ${MEMORY_COLUMNS}, m.search_terms, m.search_tags, m.search_expansions,
       (SELECT count(*) FROM memories) AS total_rows,
       (SELECT coalesce(sum(search_length), 0) FROM memories) AS total_tokens, ${hits}
     FROM memories m WHERE m.search_vector @@ ?::tsquery${filter.sql}`,
    [...queries, anyPhraseQuery(tokens), ...filter.parameters],
  );
  const first = rows[0];
  if (!first) return [];
  const statistics: CollectionStatistics = {
    rows: Number(first.total_rows),
    tokens: Number(first.total_tokens),
    hits: queries.map((_, index) => Number(first[`hit_${index}`])),
  };
  return rows
    .map((row) => ({
      id: row.id,
      text: row.text,
      normalized: row.normalized,
      tags: row.tags,
      saved_by: row.saved_by,
      save_count: row.save_count,
      created_at: row.created_at,
      updated_at: row.updated_at,
      score: fts5Bm25(
        tokens,
        [searchTokens(row.search_terms), searchTokens(row.search_tags), searchTokens(row.search_expansions)],
        weights,
        statistics,
      ),
    }))
    .sort(
      (a, b) => a.score - b.score || b.updated_at.localeCompare(a.updated_at) || Number(b.id) - Number(a.id),
    )
    .slice(0, limit);
}
