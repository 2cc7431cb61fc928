import { randomUUID } from 'node:crypto';
import { definePlugin, type PluginPaths } from '@quiver/types';
import type { StdioServerConfig } from './config.js';
import { McpBridge } from './mcp-bridge.js';
import type { McpCatalog } from './mcp-catalog.js';
import type { McpToolPinStore } from './tool-pins.js';
import { MCP_BRIDGE_VERSION } from './version.js';

/** Session id of events that concern the host rather than one session. */
const HOST_EVENT_SESSION = '*';

export interface McpBridgePluginOptions {
  /** The pin store of the workspace (the host keeps it in the user's data directory). */
  pins?: (paths: PluginPaths) => McpToolPinStore;
  /** Receives the resources and prompts of the bridged servers (what `quiver serve` relays). */
  catalog?: (catalog: McpCatalog) => void;
  /** Asked before every start and restart of a stdio server; throwing refuses it (see McpBridgeOptions). */
  beforeStart?: (server: string, config: StdioServerConfig) => void;
}

/** The MCP bridge as a Quiver plugin; its config section is the `mcpServers` table. */
export function createMcpBridgePlugin(options: McpBridgePluginOptions = {}) {
  return definePlugin({
    id: 'mcp-bridge',
    apiVersion: 1,
    version: MCP_BRIDGE_VERSION,
    description:
      'Tools of the MCP servers a personality enables, started on first use and reconnected when they fail.',
    requires: ['config', 'logger', 'lifecycle', 'events', 'paths'],
    async register(ctx) {
      const { config, logger, lifecycle, events, paths } = ctx.services;
      const bridge = new McpBridge({
        servers: config,
        register: (tool) => ctx.registerTool(tool),
        logger,
        ...(options.pins ? { pins: options.pins(paths) } : {}),
        ...(options.beforeStart ? { beforeStart: options.beforeStart } : {}),
        roots: [paths.workspace],
        onRelayEvent: (event) => events.publish(event),
        onServerLog: ({ server, ...entry }) =>
          events.publish({
            type: 'mcp_server.logged',
            id: randomUUID(),
            sessionId: HOST_EVENT_SESSION,
            timestamp: Date.now(),
            mcpServer: server,
            ...entry,
          }),
        onDiagnostic: (diagnostic) =>
          events.publish({
            type: 'session.warning',
            id: randomUUID(),
            sessionId: HOST_EVENT_SESSION,
            timestamp: Date.now(),
            code: diagnostic.code,
            message: diagnostic.message,
          }),
        onToolsChanged: (server, change) => {
          logger.info(`MCP server "${server}" tools changed`, {
            server,
            added: change.added,
            removed: change.removed,
          });
          events.publish({
            type: 'tools.list_changed',
            id: randomUUID(),
            sessionId: HOST_EVENT_SESSION,
            timestamp: Date.now(),
            pluginId: ctx.pluginId,
            server,
            added: change.added,
            removed: change.removed,
          });
        },
      });
      // A session reads the resources of the servers its personality enables, and no others.
      const enabled = new Map<string, readonly string[]>();
      // A demand may name only some of them (those of one call): every name in it is enabled.
      lifecycle.onDemand(
        (demand) =>
          void enabled.set(demand.personality, [
            ...new Set([...(enabled.get(demand.personality) ?? []), ...demand.mcpServers]),
          ]),
      );
      if (Object.keys(config).length > 0) {
        const serversFor = (personalityId: string) => enabled.get(personalityId) ?? [];
        for (const tool of bridge.resourceTools({ serversFor })) ctx.registerTool(tool);
      }
      options.catalog?.(bridge.catalog);
      lifecycle.onShutdown(() => bridge.stop());
      // Servers start when a session under a personality that enables them first needs them,
      // each on its own: one that is slow to connect never holds up the others or the host.
      lifecycle.onDemand((demand) => bridge.start(demand.mcpServers));
    },
  });
}

/** The bridge with pins kept in memory; the wiring gives it the user's pin store. */
export const mcpBridgePlugin = createMcpBridgePlugin();
