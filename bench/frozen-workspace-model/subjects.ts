import type { PermissionDecision, PermissionSubjectDecision } from '@quiver/types';

/** The reason for a command that only lacks an allow rule (other asks need the exact command granted). */
export const NO_RULE_ALLOWS = 'no rule allows this command';

/** Deny if any subject is denied, ask if any is asked, allow only when every subject is allowed. */
export function combineSubjects(
  subjects: PermissionSubjectDecision[],
  emptyReason: string,
): PermissionDecision {
  if (subjects.length === 0) return { behavior: 'allow', reason: emptyReason, subjects };
  const denied = subjects.find((subject) => subject.behavior === 'deny');
  if (denied)
    return withRule(
      { behavior: 'deny', reason: `"${denied.subject}" ${denied.reason}`, subjects },
      denied.rule,
    );
  const asked = subjects.filter((subject) => subject.behavior === 'ask');
  if (asked.length > 0) {
    const first = asked[0] as PermissionSubjectDecision;
    const more = asked.length > 1 ? ` (and ${asked.length - 1} more)` : '';
    return withRule(
      { behavior: 'ask', reason: `"${first.subject}" needs approval: ${first.reason}${more}`, subjects },
      first.rule,
    );
  }
  const rules = new Set(subjects.map((subject) => subject.rule));
  const only = rules.size === 1 ? subjects[0]?.rule : undefined;
  return withRule(
    {
      behavior: 'allow',
      reason:
        subjects.length === 1
          ? (subjects[0] as PermissionSubjectDecision).reason
          : `all ${subjects.length} parts are allowed`,
      subjects,
    },
    only,
  );
}

function withRule(decision: PermissionDecision, rule: string | undefined): PermissionDecision {
  return rule === undefined ? decision : { ...decision, rule };
}
