import type { ClientRelayHandle } from './client-relay.js';
import type { Attachment, ToolResult } from './result.js';
import type { ConnectStoreOptions, SqlStore, StorageScope } from './sql-store.js';

export const CAPABILITY_NAMES = [
  'network',
  'secrets',
  'storage',
  'fs_reach',
  'process',
  'attachments',
  'tools',
  'client_relay',
] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

/**
 * What a tool declares it needs. A required object: `{}` for none. A declared capability
 * with no backend makes the tool `not_available` (fail closed).
 */
export interface CapabilityDeclarations {
  network?: true | { domains?: string[] };
  /** Secret names the tool may receive, if the personality grants them. */
  secrets?: true | { names?: string[] };
  storage?: true | { scopes?: StorageScope[] };
  fs_reach?: true | { mode?: 'read' | 'write' };
  process?: true;
  attachments?: true;
  /** Calls other tools of the session, each through the whole call pipeline (the repl tool). */
  tools?: true;
  /** Questions and sampling requests of an MCP server, relayed to whoever started the session. */
  client_relay?: true;
}

// --- handles a tool receives in ctx.capabilities ---

/**
 * A minimal view of a synchronous SQLite connection (better-sqlite3 compatible), for
 * `StorageHandle.open()`: SQLite only. New plugins use the portable `SqlStore` from `connect()`.
 */
export interface SqlRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}
export interface SqlStatement {
  run(...params: unknown[]): SqlRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** Wraps `fn` so that each call runs in one transaction (BEGIN IMMEDIATE for `.immediate`). */
  transaction<F extends (...args: any[]) => any>(fn: F): F & { immediate: F; deferred: F; exclusive: F };
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): void;
  readonly name: string;
}

/** A migration is one SQL script; index + 1 is the schema version it produces. */
export interface OpenDatabaseOptions {
  scope: StorageScope;
  migrations: readonly string[];
}

export interface StorageHandle {
  /** Identity of each scope this tool may use (e.g. the personality id). */
  readonly scopes: Readonly<Partial<Record<StorageScope, string>>>;
  /**
   * The named database of a scope on whichever backend the host uses (SQLite files or a
   * PostgreSQL schema per scope identity and name), with the migrations of its dialect applied.
   */
  connect(name: string, options: ConnectStoreOptions): Promise<SqlStore>;
  /**
   * SQLite only: opens (or reuses) the named database file of a scope, WAL mode, migrations
   * applied. On PostgreSQL it throws `not_available`; use `connect()`.
   */
  open(name: string, options: OpenDatabaseOptions): SqlDatabase;
}

export interface FsReachHandle {
  /** Absolute real paths of the workspace roots; the first is the default cwd. */
  readonly roots: readonly string[];
  readonly mode: 'read' | 'write';
  /**
   * The read deny rule that covers a real absolute path (as written, e.g. `read_file(**\/.env)`),
   * or undefined. Tools that walk directories withhold what it covers, and tools that open a
   * file with other names (hard links) ask it about every name. Absent: the host passes no read
   * denies to this tool.
   */
  readonly readDenied?: (realPath: string) => string | undefined;
}

export type SandboxMode = 'auto' | 'off' | 'required';

export interface ProcessHandle {
  readonly roots: readonly string[];
  /** A directory in the data dir the tool may write spill files and logs to. */
  readonly spillDir: string;
  /** The most bytes one spill file may take; output past it is not kept. Absent = the tool's default. */
  readonly spillLimitBytes?: number;
  /** Minimal safe environment for child processes (no secrets). */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly sandbox: SandboxMode;
  /** Unix socket paths a sandboxed command may still connect to; every other one is hidden. */
  readonly unixSockets?: readonly string[];
  /**
   * What the sandbox mounts read-only inside the writable workspace (the host's protected-path
   * list): absolute paths, and `**\/NAME` or `**\/NAME/**` patterns, which cover every entry of
   * that name under the roots. A program that runs anyway cannot change what governs the next run.
   */
  readonly readOnlyPaths?: readonly string[];
  /**
   * Paths no command may see at all (a secret only a person may use, such as the console's): the
   * sandbox mounts an empty directory, or /dev/null, over each that exists under the roots.
   */
  readonly hiddenPaths?: readonly string[];
}

export interface SecretsHandle {
  /** Only the secrets the personality granted to this tool. */
  readonly granted: Readonly<Record<string, string>>;
}

export interface NetworkHandle {
  readonly fetch: typeof fetch;
  readonly allowedDomains?: readonly string[];
}

export interface AttachmentsHandle {
  readonly turn: readonly Attachment[];
}

/** A tool another tool may call: what a script needs to know to call it. */
export interface InnerToolInfo {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** The tool as a TypeScript method declaration (arguments and result), for code calling it. */
  declaration?: string;
}

/**
 * Other tools of the session, for a tool that runs them on the model's behalf (the repl tool).
 * Each call goes through the session's pipeline as if the model had made it (permission rules,
 * hooks, events marked as inner calls of the calling tool, the log), gets `maxChars` as its size
 * cap and no reducer: the caller sees the tool's own result.
 */
export interface ToolsHandle {
  /** Tools the caller may call directly, listed (deferred ones are found with `search`). */
  readonly listed: readonly InnerToolInfo[];
  /** Characters each inner result may take before it is trimmed. */
  readonly maxChars: number;
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult>;
  /** Finds tools by what they do, deferred ones included. */
  search(query: string, limit?: number): Promise<readonly InnerToolInfo[]>;
}

export interface CapabilityHandles {
  network: NetworkHandle;
  secrets: SecretsHandle;
  storage: StorageHandle;
  fs_reach: FsReachHandle;
  process: ProcessHandle;
  attachments: AttachmentsHandle;
  tools: ToolsHandle;
  client_relay: ClientRelayHandle;
}

export type ResolvedCapabilities = { [K in CapabilityName]?: CapabilityHandles[K] };

export interface CapabilityRequest<K extends CapabilityName = CapabilityName> {
  capability: K;
  declaration: NonNullable<CapabilityDeclarations[K]>;
  toolName: string;
  pluginId?: string;
  sessionId: string;
  personalityId: string;
  agentId: string;
  /**
   * The deny rules in force for this session beyond what its personality says (session options,
   * parent agents' denies), so that a backend filtering by deny rules (fs_reach's `readDenied`)
   * applies every one of them.
   */
  sessionDenies?: readonly string[];
}

/** Provides one capability's handles. Registered by the host or by plugins. */
export interface CapabilityBackend<K extends CapabilityName = CapabilityName> {
  readonly capability: K;
  resolve(request: CapabilityRequest<K>): CapabilityHandles[K] | Promise<CapabilityHandles[K]>;
}

/** Lookup used by the registry: which backends exist for a capability. */
export interface CapabilityBackendRegistry {
  has(capability: CapabilityName): boolean;
  resolve<K extends CapabilityName>(request: CapabilityRequest<K>): Promise<CapabilityHandles[K]>;
}
