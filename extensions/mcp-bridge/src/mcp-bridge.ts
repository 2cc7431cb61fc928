import type { Logger, Tool } from '@quiver/types';
import type {
  McpBridgeDiagnostic,
  McpServerStatus,
  McpToolsChange,
  ReconnectPolicy,
} from './bridge-types.js';
import { type ClientRelayEvent, ServerClientRelay } from './client-relay.js';
import {
  type InvalidMcpServer,
  type McpServerConfigInput,
  readMcpServersConfig,
  type StdioServerConfig,
} from './config.js';
import { McpCatalog } from './mcp-catalog.js';
import { createResourceTools, type ResourceToolsOptions } from './resource-tools.js';
import { ServerConnection } from './server-connection.js';
import type { McpServerLogEntry } from './server-log-limit.js';
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
  /** Servers' log messages, cleaned and limited per server (with a count of those dropped). */
  onServerLog?: (entry: McpServerLogEntry) => void;
  /** Absolute paths of the workspace roots, for servers allowed `roots`. */
  roots?: readonly string[];
  /** Every request a server made of the session's client (`client_relay.*` events). */
  onRelayEvent?: (event: ClientRelayEvent) => void;
  /**
   * Asked before every start and restart of a stdio server (the host checks the code a person
   * trusted); throwing refuses that start: the server is down with the thrown message.
   */
  beforeStart?: (server: string, config: StdioServerConfig) => void;
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Turns the tools of configured MCP servers into Quiver tools and keeps them current. */
export class McpBridge {
  private readonly connections: ServerConnection[];
  /** Servers whose entry is broken: reported, never started. */
  private readonly invalid: InvalidMcpServer[];
  private readonly stopWatchingPins: () => void;
  /** Resources and prompts of the connected servers. */
  readonly catalog = new McpCatalog(
    () => this.connections.map((connection) => connection.catalogEntry()),
    () => this.status(),
  );

  constructor(options: McpBridgeOptions) {
    const { servers, invalid } = readMcpServersConfig(options.servers as Record<string, unknown>);
    this.invalid = invalid;
    for (const entry of invalid) {
      const message = `MCP server "${entry.server}" is not started: ${entry.message}`;
      options.logger?.warn(message, { server: entry.server, code: 'mcp_config_invalid' });
      options.onDiagnostic?.({ server: entry.server, code: 'mcp_config_invalid', message });
    }
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
          ...(options.onServerLog ? { onServerLog: options.onServerLog } : {}),
          ...(options.beforeStart ? { beforeStart: options.beforeStart } : {}),
          relay: new ServerClientRelay({
            server: name,
            allow: config.allow,
            samplingContext: config.samplingContext,
            roots: options.roots ?? [],
            publish: options.onRelayEvent ?? (() => {}),
          }),
        }),
    );
    this.stopWatchingPins = pins.watch?.(() => this.recheckPins()) ?? (() => {});
  }

  /**
   * Connects the named servers (default: every configured one) that are not started yet, in
   * parallel and each bounded by its connect timeout, registering each one's tools as soon as it
   * connects. Resolves when the first attempt of each named server has finished; never rejects
   * for a server that fails (it is retried in the background). Unknown names are ignored.
   */
  async start(servers?: readonly string[]): Promise<void> {
    const wanted = servers === undefined ? undefined : new Set(servers);
    const starting = this.connections
      .filter((connection) => wanted === undefined || wanted.has(connection.name))
      .map((connection) => connection.start());
    if (starting.length > 0) await Promise.all(starting);
  }

  /** `list_mcp_resources` and `read_mcp_resource`, for the host to register once. */
  resourceTools(options: ResourceToolsOptions = {}): Tool[] {
    return createResourceTools(this.catalog, options);
  }

  /** Closes every client, kills stdio servers, stops reconnecting and unregisters the tools. */
  async stop(): Promise<void> {
    this.stopWatchingPins();
    await Promise.all(this.connections.map((connection) => connection.stop()));
  }

  status(): McpServerStatus[] {
    return [
      ...this.connections.map((connection) => {
        const instructions = connection.instructions();
        return instructions === undefined ? connection.status() : { ...connection.status(), instructions };
      }),
      ...this.invalid.map(
        (entry): McpServerStatus => ({
          server: entry.server,
          state: 'invalid',
          transport: undefined,
          tools: [],
          attempt: 0,
          lastError: entry.message,
          configProblem: {
            keyPath: entry.keyPath,
            ...(entry.unknownKey ? { unknownKey: entry.unknownKey } : {}),
            ...(entry.allowed ? { allowed: entry.allowed } : {}),
          },
        }),
      ),
    ];
  }

  /**
   * Checks every connected server's tools against the pins again: a changed definition a person
   * approved since it was withheld is registered now, without waiting for the server to relist.
   */
  recheckPins(): void {
    for (const connection of this.connections) connection.recheckPins();
  }

  /** The instructions a server sent at initialization, if any. */
  instructions(server: string): string | undefined {
    return this.connections.find((connection) => connection.name === server)?.instructions();
  }
}
