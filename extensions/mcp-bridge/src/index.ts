// Public surface of @quiver/mcp-bridge.
export {};
