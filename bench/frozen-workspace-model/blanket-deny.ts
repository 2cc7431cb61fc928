import type { PermissionKind } from '@quiver/types';
import type { PermissionRule } from './rule.js';
import { RuleSet } from './rule-set.js';

/**
 * Which deny rule without a specifier (`terminal`, `mcp__github`, `mcp__*__delete_*`) takes a
 * tool away whole: assembly removes such a tool before the model sees it, and the engine answers
 * the same at call time (both through `RuleSet.blanket`). A deny of any shell tool covers them all.
 */
export function createBlanketDenyCheck(
  denyRules: readonly PermissionRule[],
  toolKinds: ReadonlyMap<string, PermissionKind>,
): (toolName: string, mcpServer?: string) => PermissionRule | undefined {
  const blanket = denyRules.filter((rule) => rule.specifier === undefined);
  const rules = new RuleSet('', blanket, [], [], toolKinds);
  return (toolName, mcpServer) =>
    blanket.length === 0 ? undefined : rules.blanket('deny', toolName, mcpServer);
}
