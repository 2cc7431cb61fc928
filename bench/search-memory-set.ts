import { readFileSync } from 'node:fs';

export interface MemoryEntry {
  key: string;
  text: string;
  tags: string[];
}

export interface MemoryQuery {
  query: string;
  relevant: string[];
}

function read<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;
}

/** The committed memory set: memories, the requests tuned on, and the held-out requests. */
export function loadMemorySet(): {
  memories: MemoryEntry[];
  committed: MemoryQuery[];
  heldOut: MemoryQuery[];
} {
  const set = read<{ memories: MemoryEntry[]; queries: MemoryQuery[] }>('memory-search-set.json');
  const heldOut = read<{ queries: MemoryQuery[] }>('memory-search-held-out.json').queries;
  const keys = new Set(set.memories.map((memory) => memory.key));
  for (const { relevant } of [...set.queries, ...heldOut])
    for (const key of relevant) if (!keys.has(key)) throw new Error(`memory set names unknown memory ${key}`);
  return { memories: set.memories, committed: set.queries, heldOut };
}
