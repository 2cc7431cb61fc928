import path from 'node:path';
import type { PermissionKind } from '@quiver/types';
import { checkPermissionRule } from './check-rule.js';
import { RuleSet } from './rule-set.js';
import { realWorkspace } from './workspace-path.js';

export interface ReadDenyMatcherOptions {
  /** Path rules are relative to this directory. */
  workspace: string;
  /** Deny rules in force; only those that deny reading a path count. */
  deny: readonly string[];
  /** The tool that asks: its own path denies count whatever its kind. */
  toolName?: string;
  /** Kinds of tools the conventional names do not cover (see PermissionEngineOptions). */
  toolKinds?: Record<string, PermissionKind>;
  /** Protected paths no tool may read (real, absolute), with what to say: they hold whatever the rules say. */
  readDeniedPaths?: ReadonlyArray<{ path: string; reason: string }>;
}

/** The read deny (as written) that covers a real absolute path, or undefined. */
export type ReadDenyMatcher = (realPath: string) => string | undefined;

/**
 * The read denies of a rule set as a predicate on real paths, for tools that meet paths nobody
 * named in a call (directory walks, a hard link's other names). It picks the rules the permission
 * engine applies to a read of that path: read denies of every tool of kind read, the asking
 * tool's own path denies, and denies of tools of unknown kind (failing closed). Throws
 * `config_invalid` for a deny that does not parse.
 */
export function createReadDenyMatcher(options: ReadDenyMatcherOptions): ReadDenyMatcher {
  const toolKinds = new Map(Object.entries(options.toolKinds ?? {}));
  const deny = options.deny.map((rule) => checkPermissionRule(rule, 'deny', toolKinds));
  const rules = new RuleSet(options.workspace, deny, [], [], toolKinds);
  const denies = rules.pathRules('deny', 'read', options.toolName);
  const secrets = options.readDeniedPaths ?? [];
  if (denies.length === 0 && secrets.length === 0) return () => undefined;
  const root = realWorkspace(options.workspace);
  return (realPath) =>
    secrets.find((entry) => realPath === entry.path || realPath.startsWith(`${entry.path}${path.sep}`))
      ?.reason ?? rules.firstPathMatch(denies, ruleSubject(realPath, root))?.source;
}

/** The normalized form path rules match: relative to the workspace, absolute outside it. */
function ruleSubject(realPath: string, root: string): string {
  const relative = path.relative(root, realPath);
  if (relative === '') return '.';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return realPath;
  return relative.split(path.sep).join('/');
}
