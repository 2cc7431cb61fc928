import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { type CallToolResult, type ListToolsResult, Server } from '@modelcontextprotocol/server';
import {
  type McpToolDefinition,
  renderDefinitions,
  resolveProviderName,
  type Session,
  type SessionOptions,
} from '@quiver/runtime';
import { fail } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { toCallToolResult } from './content.js';
import { ElicitationPermissionResolver, supportsFormElicitation } from './permission-elicitation.js';
import { ProgressForwarding } from './progress-forwarding.js';

type McpTool = ListToolsResult['tools'][number];

// Read at call time, not import time, and without importing program.ts (which imports us).
const serverVersion = () =>
  (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export interface ServeConnectionOptions {
  quiver: Quiver;
  session: SessionOptions;
  /** Where diagnostics go; never stdout, which may carry the protocol. */
  log: (message: string) => void;
}

/** One MCP connection: its SDK server and the Quiver session behind it, closed together. */
export interface ServeConnection {
  readonly server: Server;
  readonly session: Session;
  close(): Promise<void>;
}

/** The tools an MCP client sees: the pool in MCP shape (deferred tools left to tool_search). */
export function listedTools(session: Session): { tools: McpTool[]; nameMap: Record<string, string> } {
  const rendered = renderDefinitions(session.pool().definitions, 'mcp');
  return { tools: rendered.tools.map(toMcpTool), nameMap: rendered.nameMap };
}

/**
 * Builds the low-level SDK server for one connection. Raw JSON Schema tools need the
 * low-level `Server` (McpServer wants zod shapes); every call runs the session's full lifecycle.
 */
export function createServeConnection(options: ServeConnectionOptions): ServeConnection {
  const { quiver, log } = options;
  const session = quiver.createSession(options.session);
  const server = new Server(
    { name: 'quiver', version: serverVersion() },
    { capabilities: { tools: { listChanged: true } } },
  );
  const resolver = new ElicitationPermissionResolver();
  const progress = new ProgressForwarding(session.events);
  const cleanups: Array<() => void> = [() => progress.close()];
  let closed = false;

  server.oninitialized = () => {
    // Without form elicitation the session stays headless: asks become denies naming the rule.
    if (supportsFormElicitation(server.getClientCapabilities()))
      session.updateOptions({ permissionResolver: resolver });
  };

  cleanups.push(
    session.events.subscribe((event) => {
      if (event.type !== 'session.tools_updated' || closed) return;
      server
        .sendToolListChanged()
        .catch((error: unknown) => log(`could not send tools/list_changed: ${messageOf(error)}`));
    }),
  );
  // The session reassembles lazily; a registry change (a plugin registering a tool later) is
  // only seen once someone asks for the pool, so ask now and let a changed signature announce it.
  let refreshScheduled = false;
  const refreshPool = () => {
    if (refreshScheduled || closed) return;
    refreshScheduled = true;
    setImmediate(() => {
      refreshScheduled = false;
      if (closed) return;
      try {
        session.pool();
      } catch (error) {
        log(`the tools could not be reassembled: ${messageOf(error)}`);
      }
    });
  };
  cleanups.push(quiver.host.registry.onChange(refreshPool));

  server.setRequestHandler('tools/list', () => ({ tools: listedTools(session).tools }));

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const toolName = resolveProviderName(name, listedTools(session).nameMap);
    const callId = `mcp-${randomUUID()}`;
    const progressToken = request.params._meta?.progressToken ?? ctx.mcpReq._meta?.progressToken;
    const untrack =
      progressToken === undefined
        ? undefined
        : progress.track(callId, (notice) =>
            ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken, ...notice } })
              .catch((error: unknown) => log(`could not send progress: ${messageOf(error)}`)),
          );
    const unbind = resolver.bind(callId, (params, requestOptions) =>
      ctx.mcpReq.elicitInput(params, requestOptions),
    );
    try {
      const [result] = await session.execute([{ id: callId, name: toolName, args }], {
        signal: ctx.mcpReq.signal,
      });
      return server.projectCallToolResult(
        toCallToolResult(result ?? fail('execution_failed', `${name} returned no result.`)),
        undefined,
      );
    } finally {
      await untrack?.();
      unbind();
      refreshPool();
    }
  });

  return {
    server,
    session,
    async close() {
      if (closed) return;
      closed = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
      await session.close().catch((error: unknown) => log(`closing the session failed: ${messageOf(error)}`));
      await server
        .close()
        .catch((error: unknown) => log(`closing the MCP server failed: ${messageOf(error)}`));
    },
  };
}

function toMcpTool(definition: McpToolDefinition): McpTool {
  // MCP requires an object schema at the root; pool definitions always have one.
  return { ...definition, inputSchema: { ...definition.inputSchema, type: 'object' } };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
