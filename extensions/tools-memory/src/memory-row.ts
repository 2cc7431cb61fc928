import type { SqlDialect, StorageScope } from '@quiver/types';
import { type Memory, memoryId } from './memory-model.js';
import { normalizeTags } from './memory-text.js';

/** The columns a memory is read from, under the alias `m`. */
export const MEMORY_COLUMNS =
  'm.id, m.text, m.normalized, m.tags, m.saved_by, m.save_count, m.created_at, m.updated_at';

export interface MemoryRow {
  id: number;
  text: string;
  normalized: string;
  tags: string;
  saved_by: string;
  save_count: number;
  created_at: string;
  updated_at: string;
}

export function toMemory(scope: StorageScope, row: MemoryRow): Memory {
  return {
    id: memoryId(scope, Number(row.id)),
    scope,
    text: row.text,
    tags: JSON.parse(row.tags) as string[],
    savedBy: row.saved_by,
    saveCount: Number(row.save_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SQL (for rows aliased `m`) keeping only memories that carry every listed tag, and its parameters. */
export function tagConditions(
  dialect: SqlDialect,
  tags: readonly string[],
): { sql: string; parameters: string[] } {
  const normalized = normalizeTags(tags);
  // PostgreSQL's jsonb `?` operator would read as a placeholder; containment says the same.
  const condition =
    dialect === 'postgres'
      ? ' AND m.tags::jsonb @> jsonb_build_array(?::text)'
      : ' AND EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?)';
  return { sql: normalized.map(() => condition).join(''), parameters: normalized };
}
