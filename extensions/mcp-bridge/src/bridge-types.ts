import type { TransportKind } from './open-client.js';

/**
 * `idle`: not started, because no session under a personality that enables it has asked yet.
 * `invalid`: its `mcpServers` entry is broken, so it never starts (the other servers do).
 */
export type McpServerState =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'down'
  | 'stopped'
  | 'disabled'
  | 'invalid';

export interface McpServerStatus {
  server: string;
  state: McpServerState;
  transport: TransportKind | undefined;
  /** Quiver names of the tools registered for this server (kept while it is down). */
  tools: string[];
  /** Reconnection attempt in progress or scheduled; 0 while connected. */
  attempt: number;
  lastError: string | undefined;
  /** For a stdio server that is down: how its process ended (exit code, or the signal that ended it). */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  /** For a server that is down: the last lines it wrote to stderr before it failed. */
  stderrTail?: string[];
  /**
   * The MCP revision spoken with the server, once connected: 2026-07-28 with a Streamable HTTP
   * server that offers it, else what the 2025 handshake agreed on.
   */
  protocolVersion?: string;
  /** What the server told its clients at initialization about using it (cleaned text), once connected. */
  instructions?: string;
  /** For an `invalid` server: the key of its entry that is wrong, and the keys allowed there. */
  configProblem?: { keyPath: string[]; unknownKey?: string; allowed?: string[] };
}

export type McpBridgeDiagnosticCode =
  | 'mcp_config_invalid'
  | 'mcp_connect_failed'
  | 'mcp_server_down'
  | 'mcp_tool_skipped'
  | 'mcp_register_failed'
  | 'mcp_list_failed'
  | 'mcp_tool_quarantined'
  | 'mcp_text_cleaned';

export interface McpBridgeDiagnostic {
  server: string;
  code: McpBridgeDiagnosticCode;
  message: string;
}

export interface McpToolsChange {
  added: string[];
  removed: string[];
}

export interface ReconnectPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
}
