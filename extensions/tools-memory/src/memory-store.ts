import { contentStems } from '@quiver/text-search';
import { fail, type SqlDatabase, type StorageScope, type ToolFailure } from '@quiver/types';
import { searchColumnValues } from './memory-index.js';
import {
  MERGE_SIMILARITY,
  type Memory,
  type MemoryLimits,
  memoryId,
  type ScoredMemory,
} from './memory-model.js';
import { normalizeMemoryText, normalizeTags, tokenJaccard } from './memory-text.js';

interface MemoryRow {
  id: number;
  text: string;
  normalized: string;
  tags: string;
  saved_by: string;
  save_count: number;
  created_at: string;
  updated_at: string;
}

function toMemory(scope: StorageScope, row: MemoryRow): Memory {
  return {
    id: memoryId(scope, row.id),
    scope,
    text: row.text,
    tags: JSON.parse(row.tags) as string[],
    savedBy: row.saved_by,
    saveCount: row.save_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

/** Every listed tag must be present. */
function tagConditions(tags: readonly string[], column: string): { sql: string; parameters: string[] } {
  const normalized = normalizeTags(tags);
  return {
    sql: normalized.map(() => ` AND EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`).join(''),
    parameters: normalized,
  };
}

function findNearDuplicate(database: SqlDatabase, text: string, normalized: string): MemoryRow | undefined {
  const exact = database.prepare('SELECT * FROM memories WHERE normalized = ? LIMIT 1').get(normalized) as
    | MemoryRow
    | undefined;
  if (exact) return exact;
  const terms = [...new Set(contentStems(text))];
  if (terms.length === 0) return undefined;
  // Near-duplicates share almost every word, rare ones included, so they rank among the best
  // BM25 matches of the new text's meaningful words.
  const candidates = database
    .prepare(
      `SELECT m.* FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
       WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts) LIMIT 20`,
    )
    .all(
      `{search_terms} : (${terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' OR ')})`,
    ) as MemoryRow[];
  return candidates.find((candidate) => tokenJaccard(candidate.text, text) >= MERGE_SIMILARITY);
}

export interface SavedMemory {
  memory: Memory;
  merged: boolean;
}

function scopeFull(scope: StorageScope, what: string, limit: string): ToolFailure {
  return fail(
    'limit_exceeded',
    `The ${scope} memory scope is full: ${what}, and the limit is ${limit}. ` +
      `Forget outdated memories with memory_forget (find them with memory_list), or save to another scope.`,
    { scope },
  );
}

/**
 * Saves or merges in one write transaction, so two agents saving the same fact at once still
 * end up with one memory.
 */
export function saveMemory(
  database: SqlDatabase,
  scope: StorageScope,
  input: { text: string; tags: string[]; savedBy: string },
  limits: MemoryLimits,
): { ok: true; value: SavedMemory } | ToolFailure {
  return database
    .transaction((): { ok: true; value: SavedMemory } | ToolFailure => {
      const normalized = normalizeMemoryText(input.text);
      const tags = normalizeTags(input.tags);
      const now = new Date().toISOString();
      const usage = database
        .prepare(
          'SELECT count(*) AS count, coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM memories',
        )
        .get() as { count: number; bytes: number };
      const existing = findNearDuplicate(database, input.text, normalized);
      const addedBytes = byteLength(input.text) - (existing ? byteLength(existing.text) : 0);
      if (usage.bytes + addedBytes > limits.maxBytesPerScope) {
        return scopeFull(
          scope,
          `its memories take ${formatNumber(usage.bytes)} bytes and this one needs ${formatNumber(addedBytes)} more`,
          `${formatNumber(limits.maxBytesPerScope)} bytes`,
        );
      }
      if (existing) {
        // The latest wording wins: a user restating a fact usually means to correct it.
        const mergedTags = normalizeTags([...(JSON.parse(existing.tags) as string[]), ...tags]);
        database
          .prepare(
            `UPDATE memories SET text = ?, normalized = ?, tags = ?, tag_text = ?, saved_by = ?,
               save_count = save_count + 1, updated_at = ?, search_terms = ?, search_tags = ?,
               search_expansions = ?, search_version = ? WHERE id = ?`,
          )
          .run(
            input.text,
            normalized,
            JSON.stringify(mergedTags),
            mergedTags.join(' '),
            input.savedBy,
            now,
            ...searchColumnValues(input.text, mergedTags),
            existing.id,
          );
        const row = database.prepare('SELECT * FROM memories WHERE id = ?').get(existing.id) as MemoryRow;
        return { ok: true, value: { memory: toMemory(scope, row), merged: true } };
      }
      if (usage.count >= limits.maxMemoriesPerScope) {
        return scopeFull(
          scope,
          `it holds ${formatNumber(usage.count)} memories`,
          `${formatNumber(limits.maxMemoriesPerScope)} memories`,
        );
      }
      const { lastInsertRowid } = database
        .prepare(
          `INSERT INTO memories (text, normalized, tags, tag_text, saved_by, created_at, updated_at,
             search_terms, search_tags, search_expansions, search_version)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.text,
          normalized,
          JSON.stringify(tags),
          tags.join(' '),
          input.savedBy,
          now,
          now,
          ...searchColumnValues(input.text, tags),
        );
      const row = database.prepare('SELECT * FROM memories WHERE id = ?').get(lastInsertRowid) as MemoryRow;
      return { ok: true, value: { memory: toMemory(scope, row), merged: false } };
    })
    .immediate();
}

/**
 * Text terms weigh 1, tags 2 (a tag is a deliberate keyword, a word in the text may be
 * incidental), synonyms indexed with the memory 0.3: they find paraphrases without outranking
 * the words themselves.
 */
const BM25_WEIGHTS = '1.0, 2.0, 0.3';

/** Memories matching an FTS5 expression over the search columns (memoryQuery), best first. */
export function searchMemories(
  database: SqlDatabase,
  scope: StorageScope,
  match: string,
  tags: readonly string[],
  limit: number,
): ScoredMemory[] {
  const filter = tagConditions(tags, 'm.tags');
  const rows = database
    .prepare(
      `SELECT m.*, bm25(memories_fts, ${BM25_WEIGHTS}) AS score
       FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
       WHERE memories_fts MATCH ?${filter.sql}
       ORDER BY score, m.updated_at DESC LIMIT ?`,
    )
    .all(match, ...filter.parameters, limit) as (MemoryRow & { score: number })[];
  return rows.map((row) => ({ ...toMemory(scope, row), score: row.score }));
}

export function listMemories(
  database: SqlDatabase,
  scope: StorageScope,
  tags: readonly string[],
  limit: number,
): { memories: Memory[]; total: number } {
  const filter = tagConditions(tags, 'memories.tags');
  return database
    .transaction(() => {
      const { total } = database
        .prepare(`SELECT count(*) AS total FROM memories WHERE 1 = 1${filter.sql}`)
        .get(...filter.parameters) as { total: number };
      const rows = database
        .prepare(`SELECT * FROM memories WHERE 1 = 1${filter.sql} ORDER BY updated_at DESC, id DESC LIMIT ?`)
        .all(...filter.parameters, limit) as MemoryRow[];
      return { memories: rows.map((row) => toMemory(scope, row)), total };
    })
    .deferred();
}

export function forgetMemory(database: SqlDatabase, scope: StorageScope, rowId: number): Memory | undefined {
  return database
    .transaction((): Memory | undefined => {
      const row = database.prepare('SELECT * FROM memories WHERE id = ?').get(rowId) as MemoryRow | undefined;
      if (!row) return undefined;
      database.prepare('DELETE FROM memories WHERE id = ?').run(rowId);
      return toMemory(scope, row);
    })
    .immediate();
}
