import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStorageBackend } from '@quiver/storage-sqlite';
import { memorySave, memorySearch, type ScoredMemory } from '@quiver/tools-memory';
import type { StorageScope, Tool, ToolContext, ToolResult } from '@quiver/types';
import { loadMemorySet } from './search-memory-set.js';

/**
 * Memory search quality on the committed memory set (bench/data): the memories are saved with
 * memory_save into real SQLite databases spread over the three scopes, then every request is
 * recalled with memory_search. Prints recall@1, recall@3 and MRR@10 for the committed and the
 * held-out requests, and the mean time per memory_search call.
 */

const SCOPES: StorageScope[] = ['personality', 'project', 'user'];

async function openStorage() {
  const dataDir = await mkdtemp(join(tmpdir(), 'quiver-memory-bench-'));
  const backend = createStorageBackend({ dataDir, userId: 'bench' });
  let calls = 0;
  const call = async (tool: Tool, args: unknown): Promise<ToolResult> => {
    calls += 1;
    const declaration = tool.capabilities.storage;
    const storage = declaration
      ? await backend.resolve({
          capability: 'storage',
          declaration,
          toolName: tool.name,
          sessionId: 'bench',
          personalityId: 'assistant',
          agentId: 'agent',
        })
      : undefined;
    const ctx = {
      callId: `call-${calls}`,
      sessionId: 'bench',
      personalityId: 'assistant',
      agent: { kind: 'main', id: 'agent' },
      turn: 1,
      signal: new AbortController().signal,
      emit: () => {},
      budget: 80_000,
      dryRun: false,
      capabilities: storage ? { storage } : {},
      attachments: [],
      session: { get: () => undefined, set: () => {}, delete: () => {} },
    } as unknown as ToolContext;
    return tool.execute(tool.input.parse(args), ctx);
  };
  const dispose = async () => {
    backend.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { call, dispose };
}

export async function run(): Promise<void> {
  const { memories, committed, heldOut } = loadMemorySet();
  const storage = await openStorage();
  try {
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
    const rows: Record<string, string>[] = [];
    const misses: string[] = [];
    let searchMs = 0;
    let searches = 0;
    for (const [label, queries] of [
      ['committed', committed],
      ['held-out', heldOut],
    ] as const) {
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
      rows.push({
        set: `${label} (${queries.length})`,
        'recall@1': `${((100 * at1) / queries.length).toFixed(1)}%`,
        'recall@3': `${((100 * at3) / queries.length).toFixed(1)}%`,
        'MRR@10': (reciprocal / queries.length).toFixed(3),
      });
    }
    console.table(rows);
    console.log(
      `memory_search over ${memories.length} memories: ${(searchMs / searches).toFixed(2)} ms per call`,
    );
    if (process.argv.includes('--misses')) console.log(`misses:\n  ${misses.join('\n  ')}`);
  } finally {
    await storage.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
