import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorageBackend } from '@quiver/storage-sqlite';
import type {
  CapabilityBackend,
  CapabilityDeclarations,
  SessionState,
  StorageHandle,
  Tool,
  ToolContext,
  ToolResult,
} from '@quiver/types';

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

export type TestStorageKind = 'sqlite' | 'postgres';

/** A storage capability backend a test owns and closes. */
export interface TestStorageBackend extends CapabilityBackend<'storage'> {
  close(): void | Promise<void>;
}

/** A real storage backend on a fresh temp data directory (SQLite) or a fresh database (PostgreSQL). */
export interface TestStorage {
  readonly kind: TestStorageKind;
  /** A fresh temp directory (the SQLite files live under it). */
  dataDir: string;
  /** Where another process finds the same state: the data directory, or the postgres:// URL. */
  location: string;
  backend: TestStorageBackend;
  /** Runs a tool the way the runtime does: zod-parsed arguments, storage resolved from its declaration. */
  call(tool: Tool, args: unknown, options?: StorageCallOptions): Promise<ToolResult>;
  /** The storage handle a tool with this declaration gets. */
  handle(
    declaration: NonNullable<CapabilityDeclarations['storage']>,
    personalityId?: string,
  ): Promise<StorageHandle>;
  dispose(): Promise<void>;
}

export interface TestStorageOptions {
  /** Prefix of the temp data directory's name. */
  prefix: string;
  /** Personality the calls run under unless a call names one. */
  personalityId: string;
}

export interface TestStorageParts {
  kind: TestStorageKind;
  dataDir: string;
  location: string;
  backend: TestStorageBackend;
  personalityId: string;
  /** Runs after the backend is closed and the data directory removed. */
  cleanup?: () => Promise<void>;
}

/** A `TestStorage` over a backend already opened (the PostgreSQL helper builds on this). */
export function testStorageOver(parts: TestStorageParts): TestStorage {
  const { backend, dataDir } = parts;
  let calls = 0;
  return {
    kind: parts.kind,
    dataDir,
    location: parts.location,
    backend,
    handle(declaration, personalityId = parts.personalityId) {
      return Promise.resolve(
        backend.resolve({
          capability: 'storage',
          declaration,
          toolName: 'test',
          sessionId: 'session-1',
          personalityId,
          agentId: 'agent-1',
        }),
      );
    },
    async call(tool, args, callOptions = {}) {
      const personalityId = callOptions.personalityId ?? parts.personalityId;
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
      await backend.close();
      await rm(dataDir, { recursive: true, force: true });
      await parts.cleanup?.();
    },
  };
}

/** A real SQLite storage backend on a fresh temp data directory. */
export async function createTestStorage(options: TestStorageOptions): Promise<TestStorage> {
  const dataDir = await mkdtemp(join(tmpdir(), `${options.prefix}-`));
  return testStorageOver({
    kind: 'sqlite',
    dataDir,
    location: dataDir,
    backend: createStorageBackend({ dataDir, userId: 'tester' }),
    personalityId: options.personalityId,
  });
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
  backend: CapabilityBackend<'storage'>,
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
