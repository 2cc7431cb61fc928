import type { PoolTool } from '../contracts.js';
import { applyAgentContext } from './agent-context.js';
import { orderTools } from './order.js';

/**
 * The tools a coordinator's workers get: the candidates that reached the agent stage, filtered
 * as for a background agent (MCP tools pass). A coordinator only delegates, so it has to be
 * told what its workers can do instead of seeing those tools itself.
 */
export function toolsOfWorkers(tools: readonly PoolTool[]): string[] {
  const workers = applyAgentContext(tools, { agent: 'async' }).kept;
  return orderTools(workers).kept.map((tool) => tool.name);
}

/** The sentence a coordinator's context carries about its workers' tools. */
export function workerToolsContext(workerTools: readonly string[]): string {
  return workerTools.length === 0
    ? 'Workers started with the agent tool have no tools in this session.'
    : `Workers started with the agent tool can use these tools: ${workerTools.join(', ')}.`;
}
