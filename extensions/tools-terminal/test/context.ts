import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxMode, SessionState, ToolContext, ToolEmission, ToolResult } from '@quiver/types';
import { afterEach, beforeEach } from 'vitest';
import { createProcessBackend, terminalReducer, terminalTool } from '../src/index.js';

export interface TestWorkspace {
  /** Real path of a fresh workspace root. */
  root: string;
  dataDir: string;
  /** A directory outside the workspace. */
  outside: string;
  cleanup(): Promise<void>;
}

export async function createWorkspace(): Promise<TestWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'quiver-terminal-test-')));
  const root = path.join(base, 'workspace');
  const dataDir = path.join(base, 'data');
  const outside = path.join(base, 'outside');
  await Promise.all([mkdir(root), mkdir(dataDir), mkdir(outside)]);
  return { root, dataDir, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Session state as the runtime keeps it: values with disposers run them when the session ends. */
export class TestSessionState implements SessionState {
  private readonly values = new Map<
    string,
    { value: unknown; dispose?: (value: never) => void | Promise<void> }
  >();
  get<T>(key: string): T | undefined {
    return this.values.get(key)?.value as T | undefined;
  }
  set<T>(key: string, value: T, dispose?: (value: T) => void | Promise<void>): void {
    this.values.set(key, { value, dispose: dispose as (value: never) => void | Promise<void> });
  }
  delete(key: string): void {
    this.values.delete(key);
  }
  async end(): Promise<void> {
    for (const { value, dispose } of this.values.values()) await dispose?.(value as never);
    this.values.clear();
  }
}

export interface ContextOptions {
  sandbox?: SandboxMode;
  sourceEnv?: Record<string, string | undefined>;
  granted?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  session?: SessionState;
  spillLimitBytes?: number;
  unixSockets?: string[];
}

export interface TestContext {
  ctx: ToolContext;
  emissions: ToolEmission[];
}

/** A ToolContext whose process handle comes from the real backend. */
export async function createContext(
  workspace: TestWorkspace,
  options: ContextOptions = {},
): Promise<TestContext> {
  const backend = createProcessBackend({
    roots: [workspace.root],
    dataDir: workspace.dataDir,
    sandbox: options.sandbox ?? 'off',
    ...(options.unixSockets ? { unixSockets: options.unixSockets } : {}),
    sourceEnv: options.sourceEnv ?? process.env,
    ...(options.spillLimitBytes === undefined ? {} : { spillLimitBytes: options.spillLimitBytes }),
  });
  const processHandle = await backend.resolve({
    capability: 'process',
    declaration: true,
    toolName: 'terminal',
    sessionId: 'session-1',
    personalityId: 'default',
    agentId: 'main',
  });
  const emissions: ToolEmission[] = [];
  const ctx: ToolContext = {
    callId: 'call-1',
    sessionId: 'session-1',
    personalityId: 'default',
    agent: { kind: 'main', id: 'main' },
    turn: 1,
    signal: options.signal ?? new AbortController().signal,
    emit: (emission) => emissions.push(emission),
    budget: 80_000,
    dryRun: false,
    capabilities: { process: processHandle, secrets: { granted: options.granted ?? {} } },
    attachments: [],
    session: options.session ?? new TestSessionState(),
  };
  if (options.timeoutMs !== undefined) ctx.timeoutMs = options.timeoutMs;
  return { ctx, emissions };
}

const resultText = (result: ToolResult) => (result.ok ? result.value : result.error) ?? '';

/**
 * A fresh workspace for each test of the file, and a command run with the real terminal tool:
 * what it printed (`raw`) and what the model would be sent (`reduced`).
 */
export function terminalOutputs(): {
  root(): string;
  reducedOutput(command: string): Promise<{ raw: string; reduced: string }>;
} {
  let workspace: TestWorkspace | undefined;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace?.cleanup();
  });
  const current = () => {
    if (!workspace) throw new Error('terminalOutputs() is used outside a test');
    return workspace;
  };
  return {
    root: () => current().root,
    async reducedOutput(command) {
      const { ctx } = await createContext(current());
      const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
      const reduced = resultText(terminalReducer.reduce(result, { toolName: 'terminal', args: { command } }));
      return { raw: resultText(result), reduced };
    },
  };
}
