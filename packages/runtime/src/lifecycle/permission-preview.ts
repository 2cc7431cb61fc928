import { validateArgsNow } from '@quiver/core';
import type { PermissionDecision, ToolCall } from '@quiver/types';
import { skipsPermission } from '../assembly/external-tools.js';
import type { ToolPool } from '../contracts.js';
import { lookupPoolTool } from './call-lookup.js';
import type { PermissionDecider } from './permission-decider.js';
import { decisionRequest } from './permission-gate.js';
import { normalizeToolName } from './tool-name.js';

/**
 * What executing a call would do at the permission step, told without doing it: `allow` (it
 * runs), `ask` (the session would ask its resolver, or deny headless), `deny` (a rule or the pool
 * refuses it). `invalid` when the call could not reach that step (unknown tool, bad arguments).
 */
export interface CallCheck {
  callId?: string;
  toolName: string;
  behavior: 'allow' | 'ask' | 'deny' | 'invalid';
  reason: string;
  /** For an ask: the rule a session or project grant would save. */
  suggestedRule?: string;
  /** For an ask: what was judged, each with its own behavior (the subcommands of a shell line). */
  subjects?: PermissionDecision['subjects'];
}

/**
 * Each call's permission decision as execution would reach it, asking no resolver, running no
 * hook or tool and publishing nothing. PreToolUse hooks are not run: one that would deny or
 * approve still does so when the call executes.
 */
export async function checkCalls(
  calls: readonly ToolCall[],
  pool: ToolPool,
  engine: PermissionDecider,
): Promise<CallCheck[]> {
  return Promise.all(calls.map((call) => checkCall(call, pool, engine)));
}

async function checkCall(call: ToolCall, pool: ToolPool, engine: PermissionDecider): Promise<CallCheck> {
  const toolName = normalizeToolName(String(call?.name), pool);
  const base = { ...(typeof call?.id === 'string' && call.id ? { callId: call.id } : {}), toolName };
  const entry = lookupPoolTool(toolName, pool);
  if ('ok' in entry) return { ...base, behavior: 'invalid', reason: entry.error };
  const checked = validateArgsNow(entry.tool.input, call.args ?? {}, entry.tool.name);
  const validation = checked instanceof Promise ? await checked : checked;
  if (!validation.valid) return { ...base, behavior: 'invalid', reason: validation.message };
  let decision: PermissionDecision;
  try {
    decision = await engine.decide(
      decisionRequest({
        tool: entry.tool,
        args: validation.args,
        mcpServer: entry.mcpServer ?? entry.tool.mcp?.server,
      }),
    );
  } catch (error) {
    return { ...base, behavior: 'deny', reason: `the permission check failed: ${String(error)}` };
  }
  if (decision.behavior !== 'ask') return { ...base, behavior: decision.behavior, reason: decision.reason };
  const exempt = decision.rule === undefined ? skipsPermission(entry.tool) : undefined;
  if (exempt !== undefined) return { ...base, behavior: 'allow', reason: exempt };
  return {
    ...base,
    behavior: 'ask',
    reason: decision.reason,
    ...(decision.suggestedRule ? { suggestedRule: decision.suggestedRule } : {}),
    ...(decision.subjects ? { subjects: decision.subjects } : {}),
  };
}
