import { availabilityOf } from '@quiver/core';
import { fail, type ToolFailure } from '@quiver/types';
import type { PoolTool, ToolPool } from '../contracts.js';

/**
 * The pool tool a call names, or why it cannot run here: pool membership is the session's gate
 * (assembly applied the deny rules, agent lists and allowlists), then the tool's own availability
 * now.
 */
export function lookupPoolTool(toolName: string, pool: ToolPool): PoolTool | ToolFailure {
  const entry = pool.executables.get(toolName);
  if (entry === undefined) return fail('not_available', notInPoolMessage(toolName, pool));
  const availability = availabilityOf(entry);
  if (!availability.available) {
    const reason = availability.reason ? `: ${availability.reason}` : '';
    return fail('not_available', `Tool "${toolName}" is not available${reason}`);
  }
  return entry;
}

function notInPoolMessage(toolName: string, pool: ToolPool): string {
  const removal = pool.removed.get(toolName);
  if (removal === undefined) {
    return `${toolName} is not available in this session: no tool of that name is in the session's tool pool.`;
  }
  return `${toolName} is not available in this session: ${removal.reason} (${removal.stage}: ${removal.rule})`;
}
