import 'reflect-metadata';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QuiverHost } from '@quiver/plugin-host';
import type { Session, SessionOptions } from '@quiver/runtime';
import { sqliteBackend } from '@quiver/storage-sqlite';
import type {
  CapabilityBackend,
  PluginDefinition,
  QuiverEvent,
  ToolDefinitionLite,
  ToolResult,
} from '@quiver/types';
import { loadError, pluginsToLoad } from './load-check.js';

export interface TestHostOptions {
  plugins: PluginDefinition<any, any>[];
  /**
   * Load the first-party plugins too, as `quiver` does (from @quiver/wiring, which @quiver/cli
   * brings): name clashes fail as they would in the CLI. The default personality still enables
   * only `plugins`.
   */
  firstPartyPlugins?: boolean;
  /** A personality object (YAML content as an object); default: every given plugin enabled, every tool allowed. */
  personality?: Record<string, unknown>;
  /** Workspace directory; default a fresh temp dir, removed on close(). */
  workspace?: string;
  /** quiver.yaml content (`pluginConfig: { <plugin id>: settings }`, mcpServers…). */
  config?: Record<string, unknown>;
  /** Capability backends for the tools under test; fs_reach, network and attachments are provided by default. */
  backends?: (context: { workspace: string; dataDir: string }) => CapabilityBackend[];
  session?: Omit<SessionOptions, 'personality'>;
}

export interface TestHost {
  readonly host: QuiverHost;
  readonly session: Session;
  readonly workspace: string;
  /** Every event the session published, in order. */
  readonly events: QuiverEvent[];
  callTool(name: string, args?: unknown): Promise<ToolResult>;
  definitions(): ToolDefinitionLite[];
  close(): Promise<void>;
}

function defaultBackends(workspace: string): CapabilityBackend[] {
  return [
    { capability: 'fs_reach', resolve: () => ({ roots: [workspace], mode: 'write' }) } as CapabilityBackend,
    { capability: 'network', resolve: () => ({ fetch: globalThis.fetch }) } as CapabilityBackend,
    { capability: 'attachments', resolve: () => ({ turn: [] }) } as CapabilityBackend,
    { capability: 'secrets', resolve: () => ({ granted: {} }) } as CapabilityBackend,
  ];
}

/** Runs the real plugin host with the given plugins, one personality and one headless session. */
export async function createTestHost(options: TestHostOptions): Promise<TestHost> {
  const ownWorkspace = options.workspace === undefined;
  const workspace = realpathSync(options.workspace ?? mkdtempSync(path.join(os.tmpdir(), 'quiver-testkit-')));
  const ids = options.plugins.map((plugin) => plugin.id);
  const personality = options.personality ?? { id: 'test', plugins: ids, permissions: { allow: ['*'] } };
  const host = await QuiverHost.create({
    workspace,
    configDir: workspace,
    config: options.config ?? {},
    builtinPlugins: await pluginsToLoad(options.plugins, options.firstPartyPlugins),
    backends: (context) => [...defaultBackends(workspace), ...(options.backends?.(context) ?? [])],
    embeddedPersonalities: { [String(personality.id ?? 'test')]: personality },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    // The session log and saved grants on SQLite in the workspace's data directory, as in a real host.
    sqlite: sqliteBackend,
  });
  const failed = host.plugins().failed;
  if (failed.length > 0) {
    await host.close();
    if (ownWorkspace) rmSync(workspace, { recursive: true, force: true });
    throw loadError(failed);
  }
  const session = host.createSession({ ...options.session, personality: String(personality.id ?? 'test') });
  const events: QuiverEvent[] = [];
  session.events.subscribe((event) => events.push(event));
  return {
    host,
    session,
    workspace,
    events,
    async callTool(name, args = {}) {
      const [result] = await session.execute([{ name, args }]);
      await new Promise((resolve) => setImmediate(resolve));
      return result!;
    },
    definitions: () => session.pool().definitions,
    async close() {
      await host.close();
      if (ownWorkspace) rmSync(workspace, { recursive: true, force: true });
    },
  };
}
