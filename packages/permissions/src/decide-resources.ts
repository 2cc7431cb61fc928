import path from 'node:path';
import type { PermissionDecision, PermissionSubjectDecision } from '@quiver/types';
import { matchesStringSpecifier } from './command-rule.js';
import { processRelativeReason } from './decide-shell.js';
import { escapeGlob } from './path-specifier.js';
import { isProtectionRule } from './protection-rules.js';
import type { PermissionRule } from './rule.js';
import { type RuleSet, ruleAppliesToTool } from './rule-set.js';
import { combineSubjects } from './subjects.js';
import { matchesUrlSpecifier, parseUrl } from './url-rule.js';
import { isProcessRelativePath, toolPathSubject } from './workspace-path.js';

type Matcher = (rule: PermissionRule) => boolean;

/** Deny, then ask, then allow among the tool's rules; a blanket rule matches every subject. */
function decideSubject(
  subject: string,
  rules: RuleSet,
  toolName: string,
  matches: Matcher,
  extraDenies: PermissionRule[] = [],
): PermissionSubjectDecision {
  const applies = (rule: PermissionRule) => rule.specifier === undefined || matches(rule);
  const protection = extraDenies.filter(isProtectionRule).find(matches);
  if (protection)
    return { subject, behavior: 'deny', rule: protection.source, reason: protection.explanation };
  const denied = rules.forTool('deny', toolName).find(applies) ?? extraDenies.find(matches);
  if (denied)
    return { subject, behavior: 'deny', rule: denied.source, reason: `denied by rule "${denied.source}"` };
  const asked = rules.forTool('ask', toolName).find(applies);
  if (asked)
    return {
      subject,
      behavior: 'ask',
      rule: asked.source,
      reason: `rule "${asked.source}" asks for approval`,
    };
  const allowed = rules.forTool('allow', toolName).find(applies);
  if (allowed)
    return {
      subject,
      behavior: 'allow',
      rule: allowed.source,
      reason: `allowed by rule "${allowed.source}"`,
    };
  return { subject, behavior: 'ask', reason: 'no rule allows it' };
}

/** Each path must pass; denies written for any tool of the same kind apply too. */
export function decidePaths(
  toolName: string,
  kind: 'read' | 'write',
  paths: string[],
  rules: RuleSet,
): PermissionDecision {
  // Write tools honour read denies too: editing a file shows its content.
  const sharedKinds: Array<'read' | 'write'> = kind === 'write' ? ['write', 'read'] : ['read'];
  const crossToolDenies = sharedKinds
    .flatMap((shared) => rules.pathRules('deny', shared, toolName))
    .filter((rule) => rule.tool !== toolName);
  const hasPathDenies =
    crossToolDenies.length > 0 ||
    rules.forTool('deny', toolName).some((rule) => rule.specifier !== undefined);
  const subjects = paths.map((filePath): PermissionSubjectDecision => {
    const resolved = toolPathSubject(filePath, rules.workspace);
    // The tool refuses such a path with the same words; deciding it here keeps a prompt from asking about it.
    if (!resolved.ok)
      return { subject: filePath, behavior: 'deny', reason: `${resolved.error} ${resolved.fix}` };
    const normalized = resolved.normalized;
    const decided = decideSubject(
      normalized,
      rules,
      toolName,
      (rule) => rules.pathMatcher(rule)(normalized),
      crossToolDenies,
    );
    // Only a rule written for /proc paths may allow one; a broader allow cannot see where it leads.
    const writtenForProc = rules
      .forTool('allow', toolName)
      .some(
        (rule) =>
          rule.specifier !== undefined &&
          isProcessRelativePath(rules.pathBase(rule) ?? '') &&
          rules.pathMatcher(rule)(normalized),
      );
    if (
      hasPathDenies &&
      isProcessRelativePath(normalized) &&
      decided.behavior === 'allow' &&
      !writtenForProc
    ) {
      return { subject: normalized, behavior: 'ask', reason: processRelativeReason(normalized) };
    }
    return decided;
  });
  if (subjects.length === 0) return decideName(toolName, rules);
  const decision = combineSubjects(subjects, 'no paths');
  if (decision.behavior === 'ask')
    decision.suggestedRule = suggestPathRule(
      toolName,
      subjects.filter((subject) => subject.behavior === 'ask').map((subject) => subject.subject),
    );
  return decision;
}

/** A rule for these paths; their own glob characters are escaped, so the rule names them only. */
function suggestPathRule(toolName: string, paths: string[]): string {
  if (paths.length === 1) return `${toolName}(${escapeGlob(paths[0] as string)})`;
  const split = paths.map((candidate) => candidate.split('/'));
  const common: string[] = [];
  for (
    let index = 0;
    split.every((parts) => parts.length > index + 1 && parts[index] === split[0]?.[index]);
    index++
  )
    common.push(split[0]?.[index] as string);
  const directory = common.join('/');
  return directory === '' || directory === '.'
    ? toolName
    : `${toolName}(${path.posix.join(escapeGlob(directory), '**')})`;
}

export function decideUrl(toolName: string, url: string, rules: RuleSet): PermissionDecision {
  const subject = decideSubject(url, rules, toolName, (rule) =>
    matchesUrlSpecifier(rule.specifier as string, url),
  );
  const decision = combineSubjects([subject], url);
  if (decision.behavior === 'ask') {
    const host = parseUrl(url)?.hostname;
    decision.suggestedRule = host ? `${toolName}(domain:${host.replace(/^www\./, '')})` : toolName;
  }
  return decision;
}

export function decideSpecifier(
  toolName: string,
  specifier: string | undefined,
  rules: RuleSet,
  mcpServer?: string,
): PermissionDecision {
  if (specifier === undefined) return decideName(toolName, rules, mcpServer);
  const subject = decideSubject(specifier, rules, toolName, (rule) =>
    matchesStringSpecifier(rule.specifier as string, specifier),
  );
  const decision = combineSubjects([subject], specifier);
  if (decision.behavior === 'ask') decision.suggestedRule = `${toolName}(${specifier})`;
  return decision;
}

/**
 * True when an allow or ask rule names a tool without a kind of its own: by its exact name, or by
 * a pattern outside the MCP namespace. A client's tool called `mcp__github__delete_repo` is not
 * a tool of the MCP server "github", so `mcp__github__*` and `mcp__github` were written for
 * other tools and do not allow it.
 */
function namesKindless(rule: PermissionRule, toolName: string): boolean {
  if (rule.tool === toolName) return true;
  return !rule.tool.startsWith('mcp__') && ruleAppliesToTool(rule, toolName);
}

/**
 * Tools checked by name only (MCP tools, tools without a permission spec). With `byNameOnly`
 * (a tool without a kind of its own), ask and allow rules must name the tool itself.
 */
export function decideName(
  toolName: string,
  rules: RuleSet,
  mcpServer?: string,
  byNameOnly = false,
): PermissionDecision {
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    const rule =
      byNameOnly && behavior !== 'deny'
        ? rules
            .layer(behavior)
            .find((candidate) => candidate.specifier === undefined && namesKindless(candidate, toolName))
        : rules.blanket(behavior, toolName, mcpServer);
    if (rule) {
      const reason =
        behavior === 'deny'
          ? `denied by rule "${rule.source}"`
          : behavior === 'ask'
            ? `rule "${rule.source}" asks for approval`
            : `allowed by rule "${rule.source}"`;
      return behavior === 'ask'
        ? { behavior, rule: rule.source, reason, suggestedRule: toolName }
        : { behavior, rule: rule.source, reason };
    }
  }
  return { behavior: 'ask', reason: `no rule allows ${toolName}`, suggestedRule: toolName };
}
