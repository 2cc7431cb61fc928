// The `@quiver/mcp-bridge/config` entry: reading the `mcpServers` table without loading the bridge.
export type {
  HttpServerConfig,
  InvalidMcpServer,
  McpServerConfig,
  McpServerConfigInput,
  McpServersReading,
  StdioServerConfig,
} from './config.js';
export { parseMcpServersConfig, readMcpServersConfig } from './config.js';
