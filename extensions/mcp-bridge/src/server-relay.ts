import type { Client } from '@modelcontextprotocol/client';
import { fail, type ToolContext, type ToolResult } from '@quiver/types';
import { tracedCallOnce } from './bridge-span.js';
import type { CallRouter } from './call-router.js';
import type { ServerClientRelay } from './client-relay.js';
import type { McpServerConfig } from './config.js';
import type { McpToolDefinition } from './mcp-tool.js';
import type { TransportKind } from './open-client.js';
import type { ResourceSubscriptions } from './resource-subscriptions.js';
import type { ServerLogLimit } from './server-log-limit.js';

/** What a new client of a server is bound to before it initializes. */
export interface ClientBindings {
  /** Questions and sampling requests of the server, relayed to the session's client. */
  relay: ServerClientRelay;
  serverLog: ServerLogLimit;
  subscriptions: ResourceSubscriptions;
  /** False once a newer connection replaced this one: its notifications are ignored. */
  isCurrent: () => boolean;
  onToolsListChanged: () => void;
}

/** Binds a new client's relay, log messages, resource subscriptions and tool-list notifications. */
export function bindClient(client: Client, bindings: ClientBindings): void {
  bindings.relay.install(client);
  bindings.serverLog.install(client, bindings.isCurrent);
  bindings.subscriptions.install(client, bindings.isCurrent);
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    if (bindings.isCurrent()) bindings.onToolsListChanged();
  });
}

/** A server connection as the calls relayed through it see it. */
export interface RelayedConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly relay: ServerClientRelay;
  /** The client and its router while the server is connected. */
  live(): { client: Client; router: CallRouter } | undefined;
  /** The transport of the last connection (kept while it is down). */
  transport(): TransportKind | undefined;
  stopped(): boolean;
  /** The failure a call gets while the server is not connected. */
  unavailable(): ToolResult;
  /** Why the transport dropped a message too large to read, once. */
  takeOversizedMessage(): string | undefined;
  markDown(reason: string): void;
  /** Resolves `true` when the server is (back) connected within `timeoutMs`. */
  waitForConnection(signal: AbortSignal, timeoutMs: number): Promise<boolean>;
}

type AttemptOutcome = { kind: 'result'; result: ToolResult } | { kind: 'dropped' };

/**
 * Relays a model's tool calls to the server: one attempt, and one retry after the server came
 * back only when a person trusts its annotations and the tool says it is idempotent.
 */
export class ToolCallRelay {
  constructor(private readonly connection: RelayedConnection) {}

  async call(
    definition: McpToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const { connection } = this;
    const first = await this.attemptCall(definition, args, ctx);
    if (first.kind === 'result') return first.result;
    const oversized = connection.takeOversizedMessage();
    if (oversized !== undefined) {
      return fail(
        'execution_failed',
        `the result of MCP tool "${definition.name}" was too large for Quiver to read (${oversized}); the connection to the server "${connection.name}" was reset and the call was not retried`,
      );
    }
    // A server's own word that a call is safe to repeat is believed only when a person said so.
    if (!connection.config.trustAnnotations || definition.annotations?.idempotentHint !== true) {
      const what = connection.transport() === 'stdio' ? 'exited' : 'dropped the connection';
      const why = connection.config.trustAnnotations
        ? 'the tool is not annotated idempotent'
        : `the server's annotations are not trusted (mcpServers.${connection.name}.trustAnnotations)`;
      return fail(
        'execution_failed',
        `the MCP server "${connection.name}" ${what} while the call was running; it was not retried because ${why}`,
      );
    }
    if (!(await connection.waitForConnection(ctx.signal, this.callTimeout(definition, ctx)))) {
      if (ctx.signal.aborted) return fail('aborted', `the call to MCP tool "${definition.name}" was aborted`);
      return fail(
        'execution_failed',
        `the MCP server "${connection.name}" went away while the call was running and did not come back in time to retry it`,
      );
    }
    const second = await this.attemptCall(definition, args, ctx);
    if (second.kind === 'result') return second.result;
    return fail(
      'execution_failed',
      `the MCP server "${connection.name}" went away again while the idempotent call was retried`,
    );
  }

  private callTimeout(definition: McpToolDefinition, ctx: ToolContext): number {
    const { callTimeoutMs, maxCallTimeoutMs, toolTimeouts } = this.connection.config;
    return Math.min(ctx.timeoutMs ?? toolTimeouts[definition.name] ?? callTimeoutMs, maxCallTimeoutMs);
  }

  private async attemptCall(
    definition: McpToolDefinition,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<AttemptOutcome> {
    const { connection } = this;
    const live = connection.live();
    if (live === undefined) return { kind: 'result', result: connection.unavailable() };
    const transport = connection.transport();
    // An abort before the request goes out is answered by callOnce.
    const outcome = await tracedCallOnce(transport, {
      server: connection.name,
      client: live.client,
      router: live.router,
      definition,
      args,
      ctx,
      timeoutMs: this.callTimeout(definition, ctx),
      maxTimeoutMs: connection.config.maxCallTimeoutMs,
      outstanding: connection.relay.outstanding,
      direct: transport === 'stdio',
    });
    if (outcome.kind === 'result') return outcome;
    // The state may have changed while the call was awaited.
    if (outcome.kind === 'not_connected' || connection.stopped()) {
      return { kind: 'result', result: connection.unavailable() };
    }
    // An HTTP server that went away shows up only as failed requests, never as a close.
    connection.markDown(`the connection failed: ${outcome.reason}`);
    return { kind: 'dropped' };
  }
}
