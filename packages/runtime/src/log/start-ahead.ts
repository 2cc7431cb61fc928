import type { PoolTool } from '../contracts.js';

/**
 * Whether a call's start must be on disk before its tool runs. Tools that run processes, reach
 * the network, wait on another server (MCP, an SDK client's external tool), on a person (client
 * relay) or on other calls (the repl tool) can run for minutes and outlive the process that
 * started them: their start is committed first, so that a process killed mid-call leaves them
 * `running` for orphan recovery. Other built-in tools run in the process itself; their start
 * goes to the log's writer thread with the rest of their batch. A tool the pool does not know
 * is treated as the former.
 */
export function startsAhead(entry: PoolTool | undefined): boolean {
  if (entry === undefined || entry.source !== 'builtin' || entry.mcpServer !== undefined) return true;
  const capabilities = entry.tool.capabilities ?? {};
  return (
    capabilities.process !== undefined ||
    capabilities.network !== undefined ||
    capabilities.client_relay !== undefined ||
    capabilities.tools !== undefined
  );
}
