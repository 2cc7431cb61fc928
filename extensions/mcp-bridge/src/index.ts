// Public surface of @quiver/mcp-bridge.

export type {
  McpBridgeDiagnostic,
  McpBridgeDiagnosticCode,
  McpServerState,
  McpServerStatus,
  McpToolsChange,
  ReconnectPolicy,
} from './bridge-types.js';
export { toToolResult } from './call-result.js';
export { childEnvironment } from './child-environment.js';
export type { ClientRelayEvent, RelayAsker } from './client-relay.js';
export type { HttpServerConfig, McpServerConfig, McpServerConfigInput, StdioServerConfig } from './config.js';
export {
  type InvalidMcpServer,
  type McpServersReading,
  parseMcpServersConfig,
  readMcpServersConfig,
} from './config.js';
export type { McpBridgeOptions } from './mcp-bridge.js';
export { McpBridge } from './mcp-bridge.js';
export type {
  CatalogListing,
  CatalogOffers,
  CatalogRequestOptions,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
} from './mcp-catalog.js';
export { McpCatalog, UnknownMcpServerError } from './mcp-catalog.js';
export type { McpLoginOptions, McpLoginOutcome } from './oauth-login.js';
export { loginToMcpServer } from './oauth-login.js';
export type { OAuthRecord } from './oauth-token-store.js';
export { OAuthTokenStore, oauthDirectory } from './oauth-token-store.js';
export type { TransportKind } from './open-client.js';
export type { McpBridgePluginOptions } from './plugin.js';
export { createMcpBridgePlugin, mcpBridgePlugin, mcpBridgePlugin as default } from './plugin.js';
export type { ResourceUpdateListener } from './resource-subscriptions.js';
export type { ResourceToolsOptions } from './resource-tools.js';
export type { McpServerLogEntry, ServerLogLevel } from './server-log-limit.js';
export { assignToolNames } from './tool-names.js';
export type { McpToolPinStore, PinnedDefinition, ToolPin } from './tool-pins.js';
