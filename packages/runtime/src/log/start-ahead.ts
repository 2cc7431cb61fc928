import type { PoolTool } from '../contracts.js';

/**
 * Whether a call's start must be committed before its tool runs. Tools that run processes (their
 * children can outlive Quiver), wait on a person (client relay) or on other calls (the repl tool)
 * run for a long time and do most harm if re-run blindly: their start is committed first, so a
 * process killed mid-call always leaves them `running` for orphan recovery. Every other call —
 * built-in tools, MCP and external tools, network requests — hands its start to the log's writer
 * thread with its completion, or a few milliseconds after it started when it runs longer, without
 * waiting for the commit: a remote call answered in a fraction of a millisecond would otherwise pay
 * a whole commit, and a crash in the milliseconds before that commit is what the log documents it
 * can lose. A tool the pool does not know is
 * treated as the former.
 */
export function startsAhead(entry: PoolTool | undefined): boolean {
  if (entry === undefined) return true;
  const capabilities = entry.tool.capabilities ?? {};
  return (
    capabilities.process !== undefined ||
    capabilities.client_relay !== undefined ||
    capabilities.tools !== undefined
  );
}
