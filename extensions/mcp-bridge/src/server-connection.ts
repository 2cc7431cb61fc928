import type { Client } from '@modelcontextprotocol/client';
import { errorMessage, fail, type Logger, type Tool, type ToolResult } from '@quiver/types';
import type {
  McpBridgeDiagnostic,
  McpBridgeDiagnosticCode,
  McpServerState,
  McpServerStatus,
  McpToolsChange,
  ReconnectPolicy,
} from './bridge-types.js';
import { warmBridgeCallPath } from './call-path-warmup.js';
import type { CallRouter } from './call-router.js';
import { cleanDefinitionText, MAX_DESCRIPTION_CHARS } from './clean-text.js';
import { needsClientRelay, type ServerClientRelay } from './client-relay.js';
import { isStdioServerConfig, type McpServerConfig, type StdioServerConfig } from './config.js';
import type { CatalogServer } from './mcp-catalog.js';
import { createMcpTool, type McpToolDefinition } from './mcp-tool.js';
import type { TransportKind } from './open-client.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { type McpServerLogEntry, ServerLogLimit } from './server-log-limit.js';
import { ReconnectSchedule } from './server-reconnect.js';
import { bindClient, ToolCallRelay } from './server-relay.js';
import { listServerTools } from './server-tool-list.js';
import type { ServerExit } from './stdio-child-transport.js';
import { isStreamDrop, stillAnswers } from './stream-drop.js';
import { createToolFilter } from './tool-filter.js';
import type { McpToolPinStore } from './tool-pins.js';
import { ToolRegistrations } from './tool-registrations.js';

export interface ServerConnectionOptions {
  name: string;
  config: McpServerConfig;
  clientVersion: string;
  register: (tool: Tool) => () => void;
  logger: Logger;
  reconnect: ReconnectPolicy;
  onDiagnostic: (diagnostic: McpBridgeDiagnostic) => void;
  onToolsChanged: (server: string, change: McpToolsChange) => void;
  pins: McpToolPinStore;
  /** The server's log messages (`notifications/message`), cleaned and rate-limited. */
  onServerLog?: (entry: McpServerLogEntry) => void;
  /** What the server may ask of the session's client, and where it goes. */
  relay: ServerClientRelay;
  /** Asked before each start and restart of a stdio server; throwing refuses it with that message. */
  beforeStart?: (server: string, config: StdioServerConfig) => void;
}

const STDERR_TAIL_CHARS = 2_000;
/** The stderr lines kept with a failure, for a person to read in `quiver mcp list`. */
const STDERR_TAIL_LINES = 5;

/** How a server process ended, as a person reads it. */
export function describeServerExit(exit: ServerExit): string {
  return exit.signal !== null
    ? `its process was ended by signal ${exit.signal}`
    : `its process exited with code ${exit.code}`;
}

/**
 * One configured MCP server: its connection's lifecycle (start, list and register tools, down,
 * stop). Reconnection is `ReconnectSchedule`'s; calls and client bindings are `server-relay.ts`'s.
 */
export class ServerConnection {
  private state: McpServerState;
  private client: Client | undefined;
  private router: CallRouter | undefined;
  private transport: TransportKind | undefined;
  private protocolVersion: string | undefined;
  private lastError: string | undefined;
  private generation = 0;
  private stderrTail = '';
  /** How the current attempt's process ended, and the stderr lines it left: kept with the failure. */
  private lastExit: ServerExit | undefined;
  private failureExit: ServerExit | undefined;
  private failureStderr: string[] = [];
  private serverInstructions: string | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private connecting: Promise<void> | undefined;
  private firstAttempt: Promise<void> | undefined;
  private connectAbort: AbortController | undefined;
  private listChangedWhileConnecting = false;
  private probing = false;
  /** Why the transport dropped a message too large to read, until a call reports it. */
  private oversizedMessage: string | undefined;
  private readonly tools: ToolRegistrations;
  private readonly serverLog: ServerLogLimit;
  private readonly subscriptions: ResourceSubscriptions;
  private readonly reconnection: ReconnectSchedule;
  private readonly calls: ToolCallRelay;
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly options: ServerConnectionOptions) {
    this.state = options.config.disabled ? 'disabled' : 'idle';
    this.reconnection = new ReconnectSchedule(options.reconnect, () => void this.beginConnect());
    this.calls = new ToolCallRelay({
      name: options.name,
      config: options.config,
      relay: options.relay,
      live: () =>
        this.state === 'connected' && this.client !== undefined && this.router !== undefined
          ? { client: this.client, router: this.router }
          : undefined,
      transport: () => this.transport,
      stopped: () => this.state === 'stopped',
      unavailable: () => this.unavailable(),
      takeOversizedMessage: () => {
        const reason = this.oversizedMessage;
        this.oversizedMessage = undefined;
        return reason;
      },
      markDown: (reason) => this.markDown(reason),
      waitForConnection: (signal, timeoutMs) => this.waitForConnection(signal, timeoutMs),
    });
    this.serverLog = new ServerLogLimit(options.name, (entry) => options.onServerLog?.(entry));
    this.subscriptions = new ResourceSubscriptions({
      client: () => (this.state === 'connected' ? this.client : undefined),
      timeoutMs: options.config.callTimeoutMs,
      report: (message) =>
        this.options.logger.warn(`MCP server "${this.name}": ${message}`, { server: this.name }),
    });
    this.tools = new ToolRegistrations({
      server: options.name,
      isListed: createToolFilter(options.config.includeTools, options.config.excludeTools),
      register: options.register,
      pins: options.pins,
      report: (code, message) => this.report(code, message),
      createTool: (definition, name) =>
        createMcpTool({
          server: options.name,
          name,
          definition,
          callTimeoutMs: options.config.toolTimeouts[definition.name] ?? options.config.callTimeoutMs,
          maxCallTimeoutMs: options.config.maxCallTimeoutMs,
          trustAnnotations: options.config.trustAnnotations,
          relay: needsClientRelay(options.config.allow),
          call: (toolDefinition, args, ctx) =>
            options.relay.during(ctx, name, () => this.calls.call(toolDefinition, args, ctx)),
        }),
    });
  }

  get name(): string {
    return this.options.name;
  }

  instructions(): string | undefined {
    return this.serverInstructions;
  }

  /** The server as resources and prompts are read from it: its client while connected. */
  catalogEntry(): CatalogServer {
    const connected = this.state === 'connected' ? this.client : undefined;
    const unavailable = connected ? undefined : this.unavailable();
    return {
      server: this.name,
      client: connected,
      reason: unavailable?.ok === false ? unavailable.error : undefined,
      timeoutMs: this.options.config.callTimeoutMs,
      subscriptions: this.subscriptions,
      relay: this.options.relay,
    };
  }

  status(): McpServerStatus {
    // A server trying again after a failure still has that failure: how its process ended and
    // its last stderr lines stay in its status until an attempt connects.
    const failed = this.state === 'down' || (this.state === 'connecting' && this.reconnection.attempt > 0);
    return {
      server: this.name,
      state: this.state,
      transport: this.transport,
      tools: this.tools.names(),
      attempt: this.reconnection.attempt,
      lastError: this.lastError,
      ...(this.state === 'connected' && this.protocolVersion
        ? { protocolVersion: this.protocolVersion }
        : {}),
      ...(failed && this.failureExit ? { exit: this.failureExit } : {}),
      ...(failed && this.failureStderr.length > 0 ? { stderrTail: this.failureStderr } : {}),
    };
  }

  /**
   * Starts the server once; every call returns the first connection attempt, which never throws.
   * A failure schedules reconnection.
   */
  start(): Promise<void> {
    if (this.firstAttempt === undefined && this.state === 'idle') this.firstAttempt = this.beginConnect();
    return this.firstAttempt ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.generation += 1;
    this.reconnection.cancel();
    this.connectAbort?.abort();
    await this.connecting;
    this.reconnection.release(false);
    this.serverLog.close();
    this.tools.clear();
    const client = this.client;
    this.client = undefined;
    if (client) this.track(client.close());
    await Promise.allSettled([...this.closing]);
  }

  private track(closing: Promise<void>): void {
    const settled = closing.catch(() => {});
    this.closing.add(settled);
    void settled.then(() => this.closing.delete(settled));
  }

  private beginConnect(): Promise<void> {
    const connecting = this.connect().finally(() => {
      if (this.connecting === connecting) this.connecting = undefined;
    });
    this.connecting = connecting;
    return connecting;
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.state = 'connecting';
    this.listChangedWhileConnecting = false;
    this.lastExit = undefined;
    const { config } = this.options;
    const created: Client[] = [];
    const deadline = new AbortController();
    this.connectAbort = deadline;
    const timer = setTimeout(
      () => deadline.abort(new Error(`no answer to initialize within ${config.connectTimeoutMs} ms`)),
      config.connectTimeoutMs,
    );
    try {
      if (isStdioServerConfig(config)) this.options.beforeStart?.(this.name, config);
      const { openClient } = await import('./open-client.js');
      const opened = await Promise.race([
        openClient({
          config,
          server: this.name,
          clientVersion: this.options.clientVersion,
          signal: deadline.signal,
          onStderr: (text) => this.recordStderr(text),
          onExit: (exit) => {
            if (generation === this.generation) this.lastExit = exit;
          },
          onCreated: (client) => created.push(client),
          prepare: (client) =>
            bindClient(client, {
              relay: this.options.relay,
              serverLog: this.serverLog,
              subscriptions: this.subscriptions,
              isCurrent: () => generation === this.generation,
              onToolsListChanged: () => {
                if (this.state === 'connected') this.refreshTools();
                else this.listChangedWhileConnecting = true;
              },
            }),
        }),
        new Promise<never>((_, reject) =>
          deadline.signal.addEventListener('abort', () =>
            reject(deadline.signal.reason ?? new Error('the bridge stopped')),
          ),
        ),
      ]);
      if (generation !== this.generation) {
        this.track(opened.client.close());
        return;
      }
      this.client = opened.client;
      this.router = opened.router;
      this.transport = opened.transport;
      this.protocolVersion = opened.client.getNegotiatedProtocolVersion();
      opened.client.onclose = () => this.handleClose(generation);
      opened.client.onerror = (error) => {
        // The transport closes right after this error, which would otherwise read as a crash.
        if (generation === this.generation && /exceed(?:s|ed) maximum/i.test(errorMessage(error)))
          this.oversizedMessage = errorMessage(error);
        if (generation === this.generation && isStreamDrop(error)) this.probeAfterDrop(opened.client, error);
      };
      const instructions = opened.client.getInstructions();
      this.serverInstructions =
        instructions === undefined
          ? undefined
          : cleanDefinitionText(instructions, MAX_DESCRIPTION_CHARS).text;
      const tools = await listServerTools(
        opened.client,
        this.options.config.connectTimeoutMs,
        deadline.signal,
      );
      if (generation !== this.generation) return;
      this.syncTools(tools);
      this.state = 'connected';
      this.lastError = undefined;
      this.failureExit = undefined;
      this.failureStderr = [];
      this.options.logger.info(`MCP server "${this.name}" connected over ${opened.transport}`, {
        server: this.name,
        tools: this.tools.size,
      });
      this.reconnection.connected();
      // A stdio server's calls take the router's direct path: compile it before the first one.
      if (opened.transport === 'stdio') setImmediate(() => void warmBridgeCallPath());
      if (this.listChangedWhileConnecting) this.refreshTools();
      this.subscriptions.renew();
    } catch (error) {
      for (const client of created) this.track(client.close());
      if (this.client !== undefined && created.includes(this.client)) this.client = undefined;
      if (generation !== this.generation) return;
      this.state = 'down';
      this.lastError = this.describeFailure(errorMessage(error));
      const message = `MCP server "${this.name}" could not be started: ${this.lastError}`;
      // One warning per outage; the retries that follow it would only repeat it.
      if (this.reconnection.attempt === 0) this.report('mcp_connect_failed', message);
      else this.options.logger.debug(message, { server: this.name, attempt: this.reconnection.attempt });
      this.scheduleReconnect();
    } finally {
      clearTimeout(timer);
      if (this.connectAbort === deadline) this.connectAbort = undefined;
    }
  }

  /** Lists the tools again when some were withheld, so that a definition a person approved is registered. */
  recheckPins(): void {
    if (this.state === 'connected' && this.tools.hasWithheld) this.refreshTools();
  }

  private refreshTools(): void {
    this.refreshing = this.refreshing.then(async () => {
      const client = this.client;
      if (this.state !== 'connected' || client === undefined) return;
      try {
        this.syncTools(await listServerTools(client, this.options.config.connectTimeoutMs));
      } catch (error) {
        this.report(
          'mcp_list_failed',
          `MCP server "${this.name}" announced new tools but listing them failed: ${errorMessage(error)}`,
        );
      }
    });
  }

  private syncTools(listed: readonly McpToolDefinition[]): void {
    const change = this.tools.sync(listed);
    if (change.added.length > 0 || change.removed.length > 0) this.options.onToolsChanged(this.name, change);
  }

  /** A broken HTTP stream: when the server no longer answers, it is down and calls in flight fail now. */
  private probeAfterDrop(client: Client, error: unknown): void {
    if (this.probing) return;
    this.probing = true;
    const generation = this.generation;
    void stillAnswers(client).then((failure) => {
      this.probing = false;
      if (failure !== undefined && generation === this.generation && this.client === client)
        this.markDown(`the connection dropped (${errorMessage(error)}; a ping then failed: ${failure})`);
    });
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation) return;
    this.markDown(this.describeFailure('the connection closed'));
  }

  private markDown(reason: string): void {
    if (this.state !== 'connected') return;
    this.generation += 1;
    const client = this.client;
    this.client = undefined;
    if (client) this.track(client.close());
    this.state = 'down';
    this.lastError = reason;
    this.report('mcp_server_down', `MCP server "${this.name}" went down: ${reason}; reconnecting.`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.state === 'stopped') return;
    this.reconnection.schedule();
  }

  private recordStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    this.options.logger.debug(`MCP server "${this.name}" stderr: ${text.trimEnd()}`, { server: this.name });
  }

  /** The failure with how the process ended and its last stderr line; both are kept for status(). */
  private describeFailure(reason: string): string {
    const lines = this.stderrTail
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '');
    this.stderrTail = '';
    this.failureStderr = lines.slice(-STDERR_TAIL_LINES);
    this.failureExit = this.lastExit;
    const ended = this.lastExit ? `${describeServerExit(this.lastExit)} (${reason})` : reason;
    const lastLine = lines.at(-1)?.trim();
    return lastLine ? `${ended} (stderr: ${lastLine})` : ended;
  }

  private report(code: McpBridgeDiagnosticCode, message: string): void {
    this.options.logger.warn(message, { server: this.name, code });
    this.options.onDiagnostic({ server: this.name, code, message });
  }

  private unavailable(): ToolResult {
    if (this.state === 'stopped') return fail('not_available', `MCP server "${this.name}" is stopped.`);
    if (this.state === 'idle') return fail('not_available', `MCP server "${this.name}" is not started.`);
    if (this.state === 'disabled')
      return fail('not_available', `MCP server "${this.name}" is disabled in the configuration.`);
    if (this.state === 'connecting' && this.reconnection.attempt === 0) {
      return fail('not_available', `MCP server "${this.name}" is still connecting.`);
    }
    return fail(
      'not_available',
      `MCP server "${this.name}" is down: ${this.lastError ?? 'not connected'}; reconnecting (attempt ${this.reconnection.attempt})…`,
    );
  }

  private waitForConnection(signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    if (this.state === 'connected') return Promise.resolve(true);
    if (this.state === 'stopped') return Promise.resolve(false);
    return this.reconnection.wait(signal, timeoutMs);
  }
}
