import { type PermissionBehavior, type PermissionKind, QuiverError } from '@quiver/types';
import { parseCommandSpecifier, parseStringSpecifier } from './command-rule.js';
import { parsePathSpecifier } from './path-specifier.js';
import { type PermissionRule, parsePermissionRule } from './rule.js';
import { toolKindOf } from './rule-set.js';
import type { SpecifierKind } from './specifier-error.js';
import { parseUrlSpecifier } from './url-rule.js';

const PARSERS: Record<SpecifierKind, (specifier: string, behavior: PermissionBehavior) => unknown> = {
  path: parsePathSpecifier,
  // An allow may name one whole command line that does not split into words; a deny or ask may not.
  command: (specifier, behavior) =>
    parseCommandSpecifier(specifier, { wholeCommand: behavior === 'allow' ? 'allowed' : 'refused' }),
  url: parseUrlSpecifier,
  string: parseStringSpecifier,
};

/**
 * How the engine will read a rule's specifier, from the kind of the tool it names: as that kind's
 * resource, and — for a deny on a tool whose kind is not known (an MCP tool, a tool not loaded
 * yet) — as a path deny of every read and write tool (see RuleSet.pathRules).
 */
export function specifierKindsOf(
  rule: PermissionRule,
  behavior: PermissionBehavior,
  kind: PermissionKind | undefined,
): SpecifierKind[] {
  if (rule.specifier === undefined) return [];
  switch (kind) {
    case 'shell':
      return ['command'];
    case 'read':
    case 'write':
      return ['path'];
    case 'url':
      return ['url'];
    case 'memory':
    case 'custom':
      return ['string'];
    default:
      if (rule.specifier.startsWith('domain:')) return ['url'];
      if (rule.specifier.endsWith(':*')) return ['string'];
      return behavior === 'deny' ? ['path'] : [];
  }
}

/**
 * A rule as written, parsed whole: the tool part and its specifier, by the same parsers the
 * matchers use. Throws `config_invalid` naming the rule, what does not parse and how to write it,
 * so that no deny or ask can become a rule that matches nothing. `toolKinds` adds kinds to the
 * conventional tool names (read_file, terminal, web_fetch, …).
 */
export function checkPermissionRule(
  source: string,
  behavior: PermissionBehavior,
  toolKinds?: ReadonlyMap<string, PermissionKind>,
): PermissionRule {
  const rule = parsePermissionRule(source);
  if (rule.specifier === undefined) return rule;
  const fail = (problem: string, fix: string | undefined) =>
    new QuiverError('config_invalid', `Permission rule "${rule.source}" does not parse: ${problem}`, {
      ...(fix ? { fix } : {}),
      details: { rule: rule.source, behavior, problem },
    });
  if (rule.tool.includes('*'))
    throw fail(
      'a tool pattern with "*" takes no specifier, since what a specifier means (a path, a command, a URL) depends on each tool it would match.',
      `Write the rule for each tool, e.g. read_file(${rule.specifier}); a path deny on one read or write tool already holds for every tool of that kind.`,
    );
  const kind = toolKindOf(rule.tool, toolKinds);
  if (behavior !== 'deny' && (kind === 'mcp' || (kind === undefined && rule.tool.startsWith('mcp__'))))
    throw fail(
      'MCP tools are decided by their name alone, so this specifier would never match.',
      `Write "${rule.tool}" without the parentheses.`,
    );
  for (const specifierKind of specifierKindsOf(rule, behavior, kind)) {
    try {
      PARSERS[specifierKind](rule.specifier, behavior);
    } catch (error) {
      if (!(error instanceof QuiverError)) throw error;
      throw fail(`${String(error.details.problem ?? error.message)}.`, error.fix);
    }
  }
  return rule;
}
