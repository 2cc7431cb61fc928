import { contentStems } from '@quiver/text-search';
import { fail, type SqlQueryable, type SqlStore, type StorageScope, type ToolFailure } from '@quiver/types';
import { assignments, searchColumnValues } from './memory-index.js';
import { MERGE_SIMILARITY, type Memory, type MemoryLimits, type ScoredMemory } from './memory-model.js';
import { MEMORY_COLUMNS, type MemoryRow, tagConditions, toMemory } from './memory-row.js';
import { rankMemories } from './memory-search.js';
import { normalizeMemoryText, normalizeTags, tokenJaccard } from './memory-text.js';
import { EQUAL_WEIGHTS, SEARCH_WEIGHTS, type SearchPhrase } from './search/search-phrase.js';
import { writeTransaction } from './write-transaction.js';

/** Memory columns as RETURNING lists them (no alias there). */
const RETURNED_COLUMNS = MEMORY_COLUMNS.replace(/m\./g, '');

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

async function findNearDuplicate(
  tx: SqlQueryable,
  text: string,
  normalized: string,
): Promise<MemoryRow | undefined> {
  const exact = await tx.get<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.normalized = ? LIMIT 1`,
    [normalized],
  );
  if (exact) return exact;
  // Near-duplicates share almost every word, rare ones included, so they rank among the best
  // BM25 matches of the new text's meaningful words.
  const phrases = [...new Set(contentStems(text))].map(
    (term): SearchPhrase => ({ text: term, prefix: false, columns: ['search_terms'] }),
  );
  const candidates = await rankMemories(tx, phrases, EQUAL_WEIGHTS, { sql: '', parameters: [] }, 20);
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
export async function saveMemory(
  store: SqlStore,
  scope: StorageScope,
  input: { text: string; tags: string[]; savedBy: string },
  limits: MemoryLimits,
): Promise<{ ok: true; value: SavedMemory } | ToolFailure> {
  const normalized = normalizeMemoryText(input.text);
  const tags = normalizeTags(input.tags);
  // Analysed before the write lock is taken: other writers wait for the transaction, not for this.
  const newColumns = searchColumnValues(store.dialect, input.text, tags);
  const bytesOfText = store.dialect === 'postgres' ? 'octet_length(text)' : 'length(CAST(text AS BLOB))';
  return writeTransaction(store, async (tx): Promise<{ ok: true; value: SavedMemory } | ToolFailure> => {
    const now = new Date().toISOString();
    const usage = await tx.get<{ count: number; bytes: number }>(
      `SELECT count(*) AS count, coalesce(sum(${bytesOfText}), 0) AS bytes FROM memories`,
    );
    const count = Number(usage?.count ?? 0);
    const bytes = Number(usage?.bytes ?? 0);
    const existing = await findNearDuplicate(tx, input.text, normalized);
    const addedBytes = byteLength(input.text) - (existing ? byteLength(existing.text) : 0);
    if (bytes + addedBytes > limits.maxBytesPerScope) {
      return scopeFull(
        scope,
        `its memories take ${formatNumber(bytes)} bytes and this one needs ${formatNumber(addedBytes)} more`,
        `${formatNumber(limits.maxBytesPerScope)} bytes`,
      );
    }
    if (existing) {
      // The latest wording wins: a user restating a fact usually means to correct it.
      const mergedTags = normalizeTags([...(JSON.parse(existing.tags) as string[]), ...tags]);
      const columns = searchColumnValues(tx.dialect, input.text, mergedTags);
      const row = await tx.get<MemoryRow>(
        `UPDATE memories SET text = ?, normalized = ?, tags = ?, tag_text = ?, saved_by = ?,
           save_count = save_count + 1, updated_at = ?, ${assignments(columns)}
         WHERE id = ? RETURNING ${RETURNED_COLUMNS}`,
        [
          input.text,
          normalized,
          JSON.stringify(mergedTags),
          mergedTags.join(' '),
          input.savedBy,
          now,
          ...columns.values,
          existing.id,
        ],
      );
      return { ok: true, value: { memory: toMemory(scope, row as MemoryRow), merged: true } };
    }
    if (count >= limits.maxMemoriesPerScope) {
      return scopeFull(
        scope,
        `it holds ${formatNumber(count)} memories`,
        `${formatNumber(limits.maxMemoriesPerScope)} memories`,
      );
    }
    const row = await tx.get<MemoryRow>(
      `INSERT INTO memories (text, normalized, tags, tag_text, saved_by, created_at, updated_at,
         ${newColumns.names.join(', ')})
       VALUES (?, ?, ?, ?, ?, ?, ?, ${newColumns.placeholders.join(', ')}) RETURNING ${RETURNED_COLUMNS}`,
      [
        input.text,
        normalized,
        JSON.stringify(tags),
        tags.join(' '),
        input.savedBy,
        now,
        now,
        ...newColumns.values,
      ],
    );
    return { ok: true, value: { memory: toMemory(scope, row as MemoryRow), merged: false } };
  });
}

/** Memories matching a search (memoryQuery's phrases) and carrying every tag, best first. */
export async function searchMemories(
  db: SqlQueryable,
  scope: StorageScope,
  phrases: readonly SearchPhrase[],
  tags: readonly string[],
  limit: number,
): Promise<ScoredMemory[]> {
  const filter = tagConditions(db.dialect, tags);
  const rows = await rankMemories(db, phrases, SEARCH_WEIGHTS, filter, limit);
  return rows.map((row) => ({ ...toMemory(scope, row), score: row.score }));
}

/** The most recently saved memories carrying every tag, and how many carry them in all. */
export async function listMemories(
  db: SqlQueryable,
  scope: StorageScope,
  tags: readonly string[],
  limit: number,
): Promise<{ memories: Memory[]; total: number }> {
  const filter = tagConditions(db.dialect, tags);
  // One statement, so the total and the page come from the same snapshot.
  const rows = await db.all<MemoryRow & { total: number }>(
    `SELECT ${MEMORY_COLUMNS}, count(*) OVER () AS total FROM memories m WHERE 1 = 1${filter.sql}
     ORDER BY m.updated_at DESC, m.id DESC LIMIT ?`,
    [...filter.parameters, limit],
  );
  return { memories: rows.map((row) => toMemory(scope, row)), total: Number(rows[0]?.total ?? 0) };
}

export async function forgetMemory(
  store: SqlStore,
  scope: StorageScope,
  rowId: number,
): Promise<Memory | undefined> {
  const row = await writeTransaction(store, (tx) =>
    tx.get<MemoryRow>(`DELETE FROM memories WHERE id = ? RETURNING ${RETURNED_COLUMNS}`, [rowId]),
  );
  return row ? toMemory(scope, row) : undefined;
}
