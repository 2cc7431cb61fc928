/** Kept in step with package.json by the release process. */
export const MCP_BRIDGE_VERSION = '0.1.0';
