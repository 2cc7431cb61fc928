import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorageBackend } from '@quiver/storage-postgres';
import { createStorageBackend } from '@quiver/storage-sqlite';
import { startPostgresServer } from '@quiver/test-utils/postgres-server';
import type { CapabilityBackend, Tool, ToolContext, ToolResult } from '@quiver/types';

/** The storage capability a memory benchmark saves into and searches, and how to call a tool on it. */
export interface BenchStorage {
  call(tool: Tool, args: unknown): Promise<ToolResult>;
  dispose(): Promise<void>;
}

function callerOn(backend: CapabilityBackend<'storage'>): BenchStorage['call'] {
  let calls = 0;
  return async (tool, args) => {
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
}

/** Real SQLite databases in a fresh temp data directory. */
export async function openSqliteBenchStorage(): Promise<BenchStorage> {
  const dataDir = await mkdtemp(join(tmpdir(), 'quiver-memory-bench-'));
  const backend = createStorageBackend({ dataDir, userId: 'bench' });
  return {
    call: callerOn(backend),
    async dispose() {
      backend.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A throwaway PostgreSQL server (initdb in a temp directory, loopback port) and its storage backend. */
export async function openPostgresBenchStorage(): Promise<BenchStorage> {
  const server = await startPostgresServer();
  try {
    const url = await server.createDatabase('memory_bench');
    const backend = await openPostgresStorageBackend({ url, project: 'bench', userId: 'bench' });
    return {
      call: callerOn(backend),
      async dispose() {
        await backend.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
