import type { Tool } from '@quiver/types';

/**
 * A call's timeout: the tool's default, or the `timeout_ms` the call asks for, never above the
 * tool's maximum. Tools that declare no timeouts run until they finish or are aborted. An MCP
 * tool's arguments are the server's: a `timeout_ms` there means what the server says it means.
 */
export function callTimeoutFor(tool: Tool, args: unknown): number | undefined {
  if (!tool.timeouts) return undefined;
  const requested =
    tool.mcp === undefined && typeof args === 'object' && args !== null
      ? (args as { timeout_ms?: unknown }).timeout_ms
      : undefined;
  const wanted =
    typeof requested === 'number' && Number.isFinite(requested) && requested > 0
      ? requested
      : tool.timeouts.defaultMs;
  return Math.min(wanted, tool.timeouts.maxMs);
}
