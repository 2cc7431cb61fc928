import type { StorageScope } from '@quiver/types';

export const MEMORY_SCOPES: readonly StorageScope[] = ['personality', 'project', 'user'];

export interface Memory {
  /** `<scope>:<number>`, e.g. `personality:12`; unique across scopes. */
  id: string;
  scope: StorageScope;
  text: string;
  tags: string[];
  savedBy: string;
  /** How many saves were merged into this memory. */
  saveCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ScoredMemory extends Memory {
  /** BM25 rank as SQLite FTS5 computes it, on either backend (negative, lower is better). */
  score: number;
}

export interface MemoryLimits {
  /** Characters per memory. */
  maxMemoryChars: number;
  /** Memories per scope database. */
  maxMemoriesPerScope: number;
  /** UTF-8 bytes of memory text per scope database. */
  maxBytesPerScope: number;
}

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = {
  maxMemoryChars: 4_000,
  maxMemoriesPerScope: 1_000,
  maxBytesPerScope: 1_000_000,
};

/** Word-set Jaccard similarity at or above which a save merges into an existing memory. */
export const MERGE_SIMILARITY = 0.9;

export function memoryId(scope: StorageScope, rowId: number): string {
  return `${scope}:${rowId}`;
}

export function parseMemoryId(id: string): { scope: StorageScope; rowId: number } | undefined {
  const match = /^(personality|project|user):(\d+)$/.exec(id.trim());
  if (!match) return undefined;
  return { scope: match[1] as StorageScope, rowId: Number(match[2]) };
}
