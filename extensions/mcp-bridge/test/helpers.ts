import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultToolRegistry } from '@quiver/core';
import type { ToolEmission, ToolResult } from '@quiver/types';
import {
  McpBridge,
  type McpBridgeDiagnostic,
  type McpBridgeOptions,
  type McpToolsChange,
} from '../src/index.js';

const require = createRequire(import.meta.url);

function packageEntry(name: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), 'dist', 'index.js');
}

export const everythingServer = packageEntry('@modelcontextprotocol/server-everything');
export const filesystemServer = packageEntry('@modelcontextprotocol/server-filesystem');
export const fixtureServer = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fixture-server.mjs');

export async function makeTempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `quiver-mcp-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface Harness {
  registry: DefaultToolRegistry;
  bridge: McpBridge;
  diagnostics: McpBridgeDiagnostic[];
  changes: Array<{ server: string } & McpToolsChange>;
  toolNames(): string[];
  call(
    name: string,
    args: unknown,
    options?: CallOptions,
  ): Promise<{ result: ToolResult; emissions: ToolEmission[] }>;
  stop(): Promise<void>;
}

/** A bridge registering into the real core registry; calls go through `executeParallel`. */
export function createHarness(
  servers: McpBridgeOptions['servers'],
  options: Partial<Omit<McpBridgeOptions, 'servers' | 'register'>> = {},
): Harness {
  const registry = new DefaultToolRegistry();
  const diagnostics: McpBridgeDiagnostic[] = [];
  const changes: Array<{ server: string } & McpToolsChange> = [];
  const bridge = new McpBridge({
    servers,
    register: (tool) => registry.register(tool, { pluginId: 'mcp-bridge' }),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    onToolsChanged: (server, change) => changes.push({ server, ...change }),
    reconnect: { initialDelayMs: 50, maxDelayMs: 400 },
    ...options,
  });
  return {
    registry,
    bridge,
    diagnostics,
    changes,
    toolNames: () =>
      registry
        .list()
        .map((entry) => entry.tool.name)
        .sort(),
    async call(name, args, callOptions = {}) {
      const emissions: ToolEmission[] = [];
      const [result] = await registry.executeParallel([{ name, args }], {
        sessionId: 'test-session',
        personalityId: 'test',
        agent: { kind: 'main', id: 'main' },
        turn: 1,
        signal: callOptions.signal,
        emit: (_callId, emission) => emissions.push(emission),
        timeoutFor: callOptions.timeoutMs === undefined ? undefined : () => callOptions.timeoutMs,
      });
      if (result === undefined) throw new Error('executeParallel returned no result');
      return { result, emissions };
    },
    stop: () => bridge.stop(),
  };
}

/** Awaits a condition that a background event (reconnect, list_changed) will make true. */
export async function eventually<T>(
  check: () => T | undefined | false,
  what: string,
  limitMs = 15_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function successText(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.error}`);
  return result.value;
}
