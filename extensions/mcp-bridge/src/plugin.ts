import { randomUUID } from 'node:crypto';
import { definePlugin, type PluginPaths } from '@quiver/types';
import { McpBridge } from './mcp-bridge.js';
import type { McpToolPinStore } from './tool-pins.js';
import { MCP_BRIDGE_VERSION } from './version.js';

/** Session id of events that concern the host rather than one session. */
const HOST_EVENT_SESSION = '*';

export interface McpBridgePluginOptions {
  /** The pin store of the workspace (the host keeps it in the user's data directory). */
  pins?: (paths: PluginPaths) => McpToolPinStore;
}

/** The MCP bridge as a Quiver plugin; its config section is the `mcpServers` table. */
export function createMcpBridgePlugin(options: McpBridgePluginOptions = {}) {
  return definePlugin({
    id: 'mcp-bridge',
    apiVersion: 1,
    version: MCP_BRIDGE_VERSION,
    description: 'Tools of the configured MCP servers, reconnected when they fail.',
    requires: ['config', 'logger', 'lifecycle', 'events', 'paths'],
    async register(ctx) {
      const { config, logger, lifecycle, events, paths } = ctx.services;
      const bridge = new McpBridge({
        servers: config,
        register: (tool) => ctx.registerTool(tool),
        logger,
        ...(options.pins ? { pins: options.pins(paths) } : {}),
        onDiagnostic: (diagnostic) =>
          events.publish({
            type: 'session.warning',
            id: randomUUID(),
            sessionId: HOST_EVENT_SESSION,
            timestamp: Date.now(),
            code: diagnostic.code,
            message: diagnostic.message,
          }),
        onToolsChanged: (server, change) =>
          logger.info(`MCP server "${server}" tools changed`, {
            server,
            added: change.added,
            removed: change.removed,
          }),
      });
      lifecycle.onShutdown(() => bridge.stop());
      await bridge.start();
    },
  });
}

/** The bridge with pins kept in memory; the wiring gives it the user's pin store. */
export const mcpBridgePlugin = createMcpBridgePlugin();
