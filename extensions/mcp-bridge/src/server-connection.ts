import type { Client } from '@modelcontextprotocol/client';
import { fail, type Logger, type Tool, type ToolContext, type ToolResult } from '@quiver/types';
import { z } from 'zod';
import { tracedCallOnce } from './bridge-span.js';
import type {
  McpBridgeDiagnostic,
  McpBridgeDiagnosticCode,
  McpServerState,
  McpServerStatus,
  McpToolsChange,
  ReconnectPolicy,
} from './bridge-types.js';
import type { CallRouter } from './call-router.js';
import { cleanDefinitionText, MAX_DESCRIPTION_CHARS } from './clean-text.js';
import { needsClientRelay, type ServerClientRelay } from './client-relay.js';
import { isStdioServerConfig, type McpServerConfig, type StdioServerConfig } from './config.js';
import { errorMessage } from './connection-errors.js';
import type { CatalogServer } from './mcp-catalog.js';
import { createMcpTool, type McpToolDefinition } from './mcp-tool.js';
import { openClient, type TransportKind } from './open-client.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { type McpServerLogEntry, ServerLogLimit } from './server-log-limit.js';
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

type AttemptOutcome = { kind: 'result'; result: ToolResult } | { kind: 'dropped' };

const STDERR_TAIL_CHARS = 2_000;

const toolsPageSchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string(), inputSchema: z.unknown().optional() })),
  nextCursor: z.string().nullish(),
});
/** One configured MCP server: its connection, its registered tools and its recovery. */
export class ServerConnection {
  private state: McpServerState;
  private client: Client | undefined;
  private router: CallRouter | undefined;
  private transport: TransportKind | undefined;
  private attempt = 0;
  private lastError: string | undefined;
  private generation = 0;
  private stderrTail = '';
  private serverInstructions: string | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
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
  private readonly connectionWaiters = new Set<(connected: boolean) => void>();
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly options: ServerConnectionOptions) {
    this.state = options.config.disabled ? 'disabled' : 'idle';
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
            options.relay.during(ctx, name, () => this.callTool(toolDefinition, args, ctx)),
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
    };
  }

  status(): McpServerStatus {
    return {
      server: this.name,
      state: this.state,
      transport: this.transport,
      tools: this.tools.names(),
      attempt: this.attempt,
      lastError: this.lastError,
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
    clearTimeout(this.reconnectTimer);
    this.connectAbort?.abort();
    await this.connecting;
    for (const resolve of this.connectionWaiters) resolve(false);
    this.connectionWaiters.clear();
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
      const opened = await Promise.race([
        openClient({
          config,
          server: this.name,
          clientVersion: this.options.clientVersion,
          signal: deadline.signal,
          onStderr: (text) => this.recordStderr(text),
          onCreated: (client) => created.push(client),
          prepare: (client) => {
            this.options.relay.install(client);
            this.serverLog.install(client, () => generation === this.generation);
            this.subscriptions.install(client, () => generation === this.generation);
            client.setNotificationHandler('notifications/tools/list_changed', () => {
              if (generation !== this.generation) return;
              if (this.state === 'connected') this.refreshTools();
              else this.listChangedWhileConnecting = true;
            });
          },
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
      const tools = await this.listTools(opened.client, deadline.signal);
      if (generation !== this.generation) return;
      this.syncTools(tools);
      this.state = 'connected';
      this.attempt = 0;
      this.lastError = undefined;
      this.options.logger.info(`MCP server "${this.name}" connected over ${opened.transport}`, {
        server: this.name,
        tools: this.tools.size,
      });
      for (const resolve of this.connectionWaiters) resolve(true);
      this.connectionWaiters.clear();
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
      if (this.attempt === 0) this.report('mcp_connect_failed', message);
      else this.options.logger.debug(message, { server: this.name, attempt: this.attempt });
      this.scheduleReconnect();
    } finally {
      clearTimeout(timer);
      if (this.connectAbort === deadline) this.connectAbort = undefined;
    }
  }

  private async listTools(client: Client, signal?: AbortSignal): Promise<McpToolDefinition[]> {
    // A server of resources or prompts only has no tools/list to ask (it would answer -32601).
    if (client.getServerCapabilities()?.tools === undefined) return [];
    const tools: McpToolDefinition[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    do {
      // A raw request with a lenient schema: the SDK's own listTools rejects the whole list when
      // one tool's input schema is not an object schema; here that one tool is skipped instead.
      const page = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        toolsPageSchema,
        { timeout: this.options.config.connectTimeoutMs, signal },
      );
      tools.push(...(page.tools as McpToolDefinition[]));
      cursor = page.nextCursor ?? undefined;
      if (cursor !== undefined && seenCursors.has(cursor)) break;
      if (cursor !== undefined) seenCursors.add(cursor);
    } while (cursor !== undefined);
    return tools;
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
        this.syncTools(await this.listTools(client));
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
    this.attempt += 1;
    const { initialDelayMs, maxDelayMs } = this.options.reconnect;
    const base = Math.min(maxDelayMs, initialDelayMs * 2 ** (this.attempt - 1));
    // Jitter keeps many bridges that lost the same server from reconnecting in lockstep.
    const delay = Math.min(maxDelayMs, base * (0.75 + Math.random() * 0.5));
    this.reconnectTimer = setTimeout(() => void this.beginConnect(), delay);
    this.reconnectTimer.unref();
  }

  private recordStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    this.options.logger.debug(`MCP server "${this.name}" stderr: ${text.trimEnd()}`, { server: this.name });
  }

  private describeFailure(reason: string): string {
    const lastLine = this.stderrTail.trimEnd().split('\n').at(-1)?.trim();
    this.stderrTail = '';
    return lastLine ? `${reason} (stderr: ${lastLine})` : reason;
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
    if (this.state === 'connecting' && this.attempt === 0) {
      return fail('not_available', `MCP server "${this.name}" is still connecting.`);
    }
    return fail(
      'not_available',
      `MCP server "${this.name}" is down: ${this.lastError ?? 'not connected'}; reconnecting (attempt ${this.attempt})…`,
    );
  }

  private async callTool(
    definition: McpToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const first = await this.attemptCall(definition, args, ctx);
    if (first.kind === 'result') return first.result;
    if (this.oversizedMessage !== undefined) {
      const reason = this.oversizedMessage;
      this.oversizedMessage = undefined;
      return fail(
        'execution_failed',
        `the result of MCP tool "${definition.name}" was too large for Quiver to read (${reason}); the connection to the server "${this.name}" was reset and the call was not retried`,
      );
    }
    // A server's own word that a call is safe to repeat is believed only when a person said so.
    if (!this.options.config.trustAnnotations || definition.annotations?.idempotentHint !== true) {
      const what = this.transport === 'stdio' ? 'exited' : 'dropped the connection';
      const why = this.options.config.trustAnnotations
        ? 'the tool is not annotated idempotent'
        : `the server's annotations are not trusted (mcpServers.${this.name}.trustAnnotations)`;
      return fail(
        'execution_failed',
        `the MCP server "${this.name}" ${what} while the call was running; it was not retried because ${why}`,
      );
    }
    if (!(await this.waitForConnection(ctx.signal, this.callTimeout(definition, ctx)))) {
      if (ctx.signal.aborted) return fail('aborted', `the call to MCP tool "${definition.name}" was aborted`);
      return fail(
        'execution_failed',
        `the MCP server "${this.name}" went away while the call was running and did not come back in time to retry it`,
      );
    }
    const second = await this.attemptCall(definition, args, ctx);
    if (second.kind === 'result') return second.result;
    return fail(
      'execution_failed',
      `the MCP server "${this.name}" went away again while the idempotent call was retried`,
    );
  }

  private callTimeout(definition: McpToolDefinition, ctx: ToolContext): number {
    const { callTimeoutMs, maxCallTimeoutMs, toolTimeouts } = this.options.config;
    return Math.min(ctx.timeoutMs ?? toolTimeouts[definition.name] ?? callTimeoutMs, maxCallTimeoutMs);
  }

  private async attemptCall(
    definition: McpToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<AttemptOutcome> {
    const { client, router } = this;
    if (this.state !== 'connected' || client === undefined || router === undefined) {
      return { kind: 'result', result: this.unavailable() };
    }
    // An abort before the request goes out is answered by callOnce.
    const outcome = await tracedCallOnce(this.transport, {
      server: this.name,
      client,
      router,
      definition,
      args,
      ctx,
      timeoutMs: this.callTimeout(definition, ctx),
      maxTimeoutMs: this.options.config.maxCallTimeoutMs,
      outstanding: this.options.relay.outstanding,
      direct: this.transport === 'stdio',
    });
    if (outcome.kind === 'result') return outcome;
    // The state may have changed while the call was awaited.
    if (outcome.kind === 'not_connected' || (this.state as McpServerState) === 'stopped') {
      return { kind: 'result', result: this.unavailable() };
    }
    // An HTTP server that went away shows up only as failed requests, never as a close.
    this.markDown(`the connection failed: ${outcome.reason}`);
    return { kind: 'dropped' };
  }

  private waitForConnection(signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    if (this.state === 'connected') return Promise.resolve(true);
    if (this.state === 'stopped') return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (connected: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.connectionWaiters.delete(finish);
        resolve(connected);
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.connectionWaiters.add(finish);
    });
  }
}
