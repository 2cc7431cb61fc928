import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorageBackend, type SqliteStorageBackend } from '@quiver/storage-sqlite';
import type { CapabilityDeclarations, SessionState, Tool, ToolContext, ToolResult } from '@quiver/types';

export function memorySession(): SessionState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

export interface StorageCallOptions {
  personalityId?: string;
  agentName?: string;
  /** What the host grants instead of the tool's own declaration. */
  storageGrant?: CapabilityDeclarations['storage'];
}

/** A real storage backend on a fresh temp data directory. */
export interface TestStorage {
  dataDir: string;
  backend: SqliteStorageBackend;
  /** Runs a tool the way the runtime does: zod-parsed arguments, storage resolved from its declaration. */
  call(tool: Tool, args: unknown, options?: StorageCallOptions): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export interface TestStorageOptions {
  /** Prefix of the temp data directory's name. */
  prefix: string;
  /** Personality the calls run under unless a call names one. */
  personalityId: string;
}

export async function createTestStorage(options: TestStorageOptions): Promise<TestStorage> {
  const dataDir = await mkdtemp(join(tmpdir(), `${options.prefix}-`));
  const backend = createStorageBackend({ dataDir, userId: 'tester' });
  let calls = 0;
  return {
    dataDir,
    backend,
    async call(tool, args, callOptions = {}) {
      const personalityId = callOptions.personalityId ?? options.personalityId;
      calls += 1;
      const declaration = callOptions.storageGrant ?? tool.capabilities.storage;
      const storage = declaration
        ? await backend.resolve({
            capability: 'storage',
            declaration,
            toolName: tool.name,
            sessionId: 'session-1',
            personalityId,
            agentId: 'agent-1',
          })
        : undefined;
      const agentName = callOptions.agentName;
      const ctx: ToolContext = {
        callId: `call-${calls}`,
        sessionId: 'session-1',
        personalityId,
        agent: { kind: 'main', id: 'agent-1', ...(agentName ? { name: agentName } : {}) },
        turn: 1,
        signal: new AbortController().signal,
        emit: () => {},
        budget: 80_000,
        dryRun: false,
        capabilities: storage ? { storage } : {},
        attachments: [],
        session: memorySession(),
      };
      return tool.execute(tool.input.parse(args), ctx);
    },
    async dispose() {
      backend.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The structured payload of a successful result; fails the test with the error text otherwise. */
export function structuredOf<T>(result: ToolResult): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.error}`);
  return result.structured as T;
}

/**
 * Runs a storage tool inside a fixture child process the way the runtime would, with storage
 * resolved from the real backend; the agent name is the process's second argument.
 */
export async function callToolInProcess(
  backend: SqliteStorageBackend,
  tool: Tool,
  args: unknown,
  personalityId: string,
): Promise<ToolResult> {
  const storage = await backend.resolve({
    capability: 'storage',
    declaration: tool.capabilities.storage!,
    toolName: tool.name,
    sessionId: `session-${process.pid}`,
    personalityId,
    agentId: `agent-${process.pid}`,
  });
  const ctx: ToolContext = {
    callId: `call-${process.pid}`,
    sessionId: `session-${process.pid}`,
    personalityId,
    agent: { kind: 'main', id: `agent-${process.pid}`, name: process.argv[3] ?? 'worker' },
    turn: 1,
    signal: new AbortController().signal,
    emit() {},
    budget: 80_000,
    dryRun: false,
    capabilities: { storage },
    attachments: [],
    session: memorySession(),
  };
  return tool.execute(tool.input.parse(args), ctx);
}
