import type { Logger, Tool } from '@quiver/types';
import type {
  McpBridgeDiagnostic,
  McpServerStatus,
  McpToolsChange,
  ReconnectPolicy,
} from './bridge-types.js';
import { type McpServerConfigInput, parseMcpServersConfig } from './config.js';
import { ServerConnection } from './server-connection.js';
import { createMemoryPinStore, type McpToolPinStore } from './tool-pins.js';
import { MCP_BRIDGE_VERSION } from './version.js';

export interface McpBridgeOptions {
  /** The `mcpServers` table: server name → `{ command, … }` or `{ url, … }`. Validated here. */
  servers: Readonly<Record<string, McpServerConfigInput | unknown>>;
  /** Registers a tool and returns its unregister function (e.g. `registry.register`). */
  register: (tool: Tool) => () => void;
  logger?: Logger;
  /** Called after a server's registered tools changed (connect, list_changed, reconnect). */
  onToolsChanged?: (server: string, change: McpToolsChange) => void;
  /** Connection failures, servers going down, skipped tools. Never thrown. */
  onDiagnostic?: (diagnostic: McpBridgeDiagnostic) => void;
  /** Backoff between reconnection attempts; default 500 ms doubling to 30 s, with jitter. */
  reconnect?: Partial<ReconnectPolicy>;
  /**
   * Where the first definition seen of each tool is pinned; a changed definition is withheld.
   * Default: in memory, for this process only.
   */
  pins?: McpToolPinStore;
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Turns the tools of configured MCP servers into Quiver tools and keeps them current. */
export class McpBridge {
  private readonly connections: ServerConnection[];
  private started: Promise<void> | undefined;

  constructor(options: McpBridgeOptions) {
    const servers = parseMcpServersConfig(options.servers as Record<string, unknown>);
    const pins = options.pins ?? createMemoryPinStore();
    const reconnect: ReconnectPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, ...options.reconnect };
    this.connections = [...servers].map(
      ([name, config]) =>
        new ServerConnection({
          name,
          config,
          clientVersion: MCP_BRIDGE_VERSION,
          register: options.register,
          logger: options.logger ?? silentLogger,
          reconnect,
          onDiagnostic: options.onDiagnostic ?? (() => {}),
          onToolsChanged: options.onToolsChanged ?? (() => {}),
          pins,
        }),
    );
  }

  /**
   * Connects every enabled server in parallel, each bounded by its connect timeout, and
   * registers their tools. Resolves when every first attempt has finished; never rejects for a
   * server that fails (it is retried in the background).
   */
  start(): Promise<void> {
    this.started ??= Promise.all(this.connections.map((connection) => connection.start())).then(() => {});
    return this.started;
  }

  /** Closes every client, kills stdio servers, stops reconnecting and unregisters the tools. */
  async stop(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.stop()));
  }

  status(): McpServerStatus[] {
    return this.connections.map((connection) => connection.status());
  }

  /** The instructions a server sent at initialization, if any. */
  instructions(server: string): string | undefined {
    return this.connections.find((connection) => connection.name === server)?.instructions();
  }
}
