import type { SqlParameter, SqlQueryable } from '@quiver/types';
import { MEMORY_COLUMNS, type MemoryRow } from './memory-row.js';
import { fts5Expression } from './search/fts5-expression.js';
import { rankOnPostgres } from './search/postgres-ranking.js';
import type { ColumnWeights, SearchPhrase } from './search/search-phrase.js';

/**
 * Memories matching any of the phrases (and the extra conditions on `m`), best first by BM25
 * with the given column weights, ties to the more recent: FTS5 on SQLite, the same scores
 * computed over PostgreSQL full-text search on PostgreSQL.
 */
export async function rankMemories(
  db: SqlQueryable,
  phrases: readonly SearchPhrase[],
  weights: ColumnWeights,
  filter: { sql: string; parameters: readonly SqlParameter[] },
  limit: number,
): Promise<(MemoryRow & { score: number })[]> {
  if (phrases.length === 0) return [];
  if (db.dialect === 'postgres') return rankOnPostgres(db, phrases, weights, filter, limit);
  return db.all<MemoryRow & { score: number }>(
    `SELECT ${MEMORY_COLUMNS}, bm25(memories_fts, ${weights.join(', ')}) AS score
     FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
     WHERE memories_fts MATCH ?${filter.sql}
     ORDER BY score, m.updated_at DESC LIMIT ?`,
    [fts5Expression(phrases), ...filter.parameters, limit],
  );
}
