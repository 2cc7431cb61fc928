import { headlessDenial } from '@quiver/permissions';
import type {
  GrantScope,
  PermissionAnswer,
  PermissionDecision,
  PermissionResolver,
  QuiverEvent,
  Tool,
  ToolFailure,
} from '@quiver/types';
import { errorMessage, fail } from '@quiver/types';
import { judgedByNameOnly, skipsPermission } from '../assembly/external-tools.js';
import { judgedName } from '../assembly/judged-as-built-in.js';
import type { createEventFactory } from '../events/event-factory.js';
import type { PermissionDecider } from './permission-decider.js';

export interface PermissionCheck {
  callId: string;
  tool: Tool;
  args: unknown;
  mcpServer: string | undefined;
  /** A preToolUse hook that approved: it answers an ask, never a deny. */
  approvedBy: string | undefined;
  signal: AbortSignal;
}

export interface PermissionGateDeps {
  engine: PermissionDecider;
  resolver: PermissionResolver | undefined;
  makeEvent: ReturnType<typeof createEventFactory>;
  publish(event: QuiverEvent): void;
}

/**
 * What the engine decides on: a tool answering to a built-in's name or alias under the built-in's
 * name (its rules) and spec; a client's tool without a kind by its exact name only.
 */
export function decisionRequest(check: Pick<PermissionCheck, 'tool' | 'args' | 'mcpServer'>) {
  return {
    toolName: judgedName(check.tool) ?? check.tool.name,
    ...(judgedByNameOnly(check.tool) ? { byNameOnly: true } : {}),
    args: check.args,
    ...(check.tool.permission ? { spec: check.tool.permission } : {}),
    ...(check.mcpServer ? { mcpServer: check.mcpServer } : {}),
  };
}

/**
 * Whether the rules allow the call at once, without a wait: then `checkPermission` would let it
 * run and publish nothing, so a caller may skip it (and the turn of the event loop it costs).
 */
export function allowedAtOnce(check: PermissionCheck, deps: PermissionGateDeps): boolean {
  if (deps.engine.decideNow === undefined) return false;
  try {
    return deps.engine.decideNow(decisionRequest(check))?.behavior === 'allow';
  } catch {
    // `checkPermission` reports the failure.
    return false;
  }
}

/**
 * Rules first (deny before ask before allow), then for an ask: an approving hook, the UI's
 * resolver, or — headless — a deny that names the rule that would allow the call.
 * Returns the failure to report, or undefined when the call may run.
 */
export async function checkPermission(
  check: PermissionCheck,
  deps: PermissionGateDeps,
): Promise<ToolFailure | undefined> {
  const toolName = check.tool.name;
  const completed = (fields: {
    behavior: 'allow' | 'deny';
    scope?: GrantScope | 'rule';
    rule?: string;
    reason: string;
  }) => deps.publish(deps.makeEvent('permission.completed', { callId: check.callId, toolName, ...fields }));

  let decision: PermissionDecision;
  try {
    decision = await deps.engine.decide(decisionRequest(check));
  } catch (error) {
    const reason = `the permission check failed: ${errorMessage(error)}`;
    completed({ behavior: 'deny', reason });
    return fail('not_permitted', `${toolName} was not permitted: ${reason}`);
  }

  if (decision.behavior === 'allow') return undefined;
  if (decision.behavior === 'deny') {
    completed({
      behavior: 'deny',
      scope: 'rule',
      ...(decision.rule ? { rule: decision.rule } : {}),
      reason: decision.reason,
    });
    const rule =
      decision.rule && !decision.reason.includes(decision.rule) ? ` (rule "${decision.rule}")` : '';
    return fail('not_permitted', `${toolName} is not permitted: ${decision.reason}${rule}`);
  }

  // An ask rule someone wrote still asks; skipPermission only replaces asking by default.
  const exempt = decision.rule === undefined ? skipsPermission(check.tool) : undefined;
  if (exempt !== undefined) {
    completed({ behavior: 'allow', scope: 'once', reason: exempt });
    return undefined;
  }

  if (check.approvedBy !== undefined) {
    completed({ behavior: 'allow', scope: 'once', reason: `approved by hook "${check.approvedBy}"` });
    return undefined;
  }

  deps.publish(deps.makeEvent('permission.requested', { callId: check.callId, toolName, decision }));
  const suggestedRule = decision.suggestedRule ?? judgedName(check.tool) ?? toolName;
  if (deps.resolver === undefined) {
    const asked = decision.subjects
      ?.filter((entry) => entry.behavior === 'ask')
      .map((entry) => entry.subject);
    const denial = headlessDenial(toolName, asked?.length ? asked.join(', ') : toolName, {
      ...decision,
      suggestedRule,
    });
    completed({ behavior: 'deny', reason: denial.reason });
    return fail('not_permitted', denial.reason);
  }

  let answer: PermissionAnswer;
  try {
    answer = await untilAborted(
      deps.resolver.resolve({ callId: check.callId, toolName, args: check.args, decision }, check.signal),
      check.signal,
    );
  } catch (error) {
    if (check.signal.aborted) {
      completed({ behavior: 'deny', reason: 'the call was aborted while waiting for approval' });
      return fail(
        'aborted',
        `${toolName} was aborted while waiting for approval: ${errorMessage(check.signal.reason)}`,
      );
    }
    const reason = `asking for approval failed: ${errorMessage(error)}`;
    completed({ behavior: 'deny', reason });
    return fail('not_permitted', `${toolName} was not permitted: ${reason}`);
  }

  if (answer.behavior === 'deny') {
    const reason = answer.reason ?? 'denied by the user';
    completed({ behavior: 'deny', scope: 'once', reason });
    return fail('not_permitted', `${toolName} was denied: ${reason}`);
  }
  // Without a suggested rule the only grant we could save is the whole tool, which is broader
  // than what the user saw; such answers apply to this call only.
  const scope = answer.scope !== 'once' && decision.suggestedRule === undefined ? 'once' : answer.scope;
  if (scope !== answer.scope) {
    const message = `The ${answer.scope} grant for ${toolName} was applied to this call only: the permission engine suggested no rule to save.`;
    deps.publish(deps.makeEvent('session.warning', { code: 'grant_narrowed', message }));
  }
  if (scope !== 'once') {
    try {
      await deps.engine.grant(suggestedRule, scope);
    } catch (error) {
      deps.publish(
        deps.makeEvent('session.warning', {
          code: 'grant_failed',
          message: `Could not save the ${scope} grant "${suggestedRule}": ${errorMessage(error)}; it applies to this call only.`,
        }),
      );
    }
  }
  completed({
    behavior: 'allow',
    scope,
    ...(scope === 'once' ? {} : { rule: suggestedRule }),
    reason: `allowed by the user (${scope})`,
  });
  return undefined;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
