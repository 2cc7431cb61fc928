import type { PermissionBehavior, PermissionKind } from '@quiver/types';
import { escapeGlob, type PathSpecifier, parsePathSpecifier } from './path-specifier.js';
import { PROTECTION_TOOL } from './protection-rules.js';
import { type PermissionRule, ruleMatchesToolName } from './rule.js';
import { compilePathSpecifier, type PathMatcher, pathSpecifierBase } from './workspace-path.js';

/** Tool names conventionally used for each kind, so path denies cover them without configuration. */
const CONVENTIONAL_TOOL_KINDS: Record<string, PermissionKind> = {
  terminal: 'shell',
  bash: 'shell',
  shell: 'shell',
  Bash: 'shell',
  read_file: 'read',
  read_many_files: 'read',
  grep: 'read',
  glob: 'read',
  list_directory: 'read',
  list_dir: 'read',
  search_files: 'read',
  Read: 'read',
  Grep: 'read',
  Glob: 'read',
  LS: 'read',
  write_file: 'write',
  edit_file: 'write',
  multi_edit: 'write',
  apply_patch: 'write',
  delete_file: 'write',
  Write: 'write',
  Edit: 'write',
  MultiEdit: 'write',
  NotebookEdit: 'write',
  web_fetch: 'url',
  WebFetch: 'url',
};

/** The kind of `toolName`: from `toolKinds`, else from its conventional name, else unknown. */
export function toolKindOf(
  toolName: string,
  toolKinds?: ReadonlyMap<string, PermissionKind>,
): PermissionKind | undefined {
  return (
    toolKinds?.get(toolName) ??
    (Object.hasOwn(CONVENTIONAL_TOOL_KINDS, toolName) ? CONVENTIONAL_TOOL_KINDS[toolName] : undefined)
  );
}

/** The tool name whose rules every shell tool obeys. */
export const SHELL_RULE_SPACE = 'terminal';

/** Compiled path rules, kept by the engine across decisions (the workspace does not change). */
export interface RuleSetCaches {
  pathMatchers: Map<string, PathMatcher>;
  pathBases: Map<string, string | null>;
}

/** The rules in force for one decision, with the lookups every kind of check needs. */
export class RuleSet {
  readonly #pathMatchers: Map<string, PathMatcher>;
  readonly #pathBases: Map<string, string | null>;

  constructor(
    readonly workspace: string,
    readonly deny: readonly PermissionRule[],
    readonly ask: readonly PermissionRule[],
    readonly allow: readonly PermissionRule[],
    readonly toolKinds: ReadonlyMap<string, PermissionKind>,
    caches: RuleSetCaches = { pathMatchers: new Map(), pathBases: new Map() },
    /** Write denies for what Quiver loads as configuration or code (see protected-paths.ts). */
    readonly protections: readonly PermissionRule[] = [],
  ) {
    this.#pathMatchers = caches.pathMatchers;
    this.#pathBases = caches.pathBases;
  }

  kindOf(toolName: string): PermissionKind | undefined {
    return toolKindOf(toolName, this.toolKinds);
  }

  layer(behavior: PermissionBehavior): readonly PermissionRule[] {
    return behavior === 'deny' ? this.deny : behavior === 'ask' ? this.ask : this.allow;
  }

  /**
   * Rules of `behavior` that name this tool, with or without a specifier. The shell tools share
   * one rule space: `terminal(...)` rules apply to every tool of kind shell (`terminal_start`, a
   * `terminal_write`), and a deny written for any shell tool applies to all of them.
   */
  forTool(behavior: PermissionBehavior, toolName: string, mcpServer?: string): PermissionRule[] {
    const shell = mcpServer === undefined && this.kindOf(toolName) === 'shell';
    return this.layer(behavior).filter(
      (rule) =>
        ruleAppliesToTool(rule, toolName, mcpServer) ||
        (shell &&
          (rule.tool === SHELL_RULE_SPACE ||
            (behavior === 'deny' && !rule.tool.includes('*') && this.kindOf(rule.tool) === 'shell'))),
    );
  }

  blanket(behavior: PermissionBehavior, toolName: string, mcpServer?: string): PermissionRule | undefined {
    return this.forTool(behavior, toolName, mcpServer).find((rule) => rule.specifier === undefined);
  }

  /**
   * Path rules of every tool of `kind` (plus the calling tool's own): a deny on
   * `read_file(secrets/**)` also stops grep and `cat` from reading there. A deny written for a
   * tool whose kind is not known yet, or of an MCP tool (decided by name only), counts as a path
   * deny of both kinds, unless its specifier is clearly a command prefix or a domain: failing
   * closed beats missing a deny. Write denies
   * start with the protected paths, so every write subject meets them before any other rule.
   */
  pathRules(behavior: PermissionBehavior, kind: 'read' | 'write', callingTool?: string): PermissionRule[] {
    const protections =
      behavior !== 'deny'
        ? []
        : kind === 'write'
          ? this.protections
          : this.protections.filter((rule) => (rule as { readDenied?: boolean }).readDenied === true);
    return [...protections, ...this.#layerPathRules(behavior, kind, callingTool)];
  }

  #layerPathRules(
    behavior: PermissionBehavior,
    kind: 'read' | 'write',
    callingTool?: string,
  ): PermissionRule[] {
    return this.layer(behavior).filter((rule) => {
      if (rule.specifier === undefined) return false;
      if (rule.tool === callingTool) return true;
      const ruleKind = this.kindOf(rule.tool);
      if (ruleKind === kind) return true;
      return (
        behavior === 'deny' &&
        (ruleKind === undefined || ruleKind === 'mcp') &&
        !rule.tool.includes('*') &&
        !rule.specifier.endsWith(':*') &&
        !rule.specifier.startsWith('domain:')
      );
    });
  }

  /** Throws `config_invalid` for a specifier that does not parse as a path: the decision fails closed. */
  pathMatcher(rule: PermissionRule): PathMatcher {
    let matcher = this.#pathMatchers.get(rule.source);
    if (!matcher) {
      matcher = compilePathSpecifier(pathSpecifierOf(rule), this.workspace);
      this.#pathMatchers.set(rule.source, matcher);
    }
    return matcher;
  }

  pathBase(rule: PermissionRule): string | null {
    let base = this.#pathBases.get(rule.source);
    if (base === undefined) {
      base = pathSpecifierBase(pathSpecifierOf(rule), this.workspace);
      this.#pathBases.set(rule.source, base);
    }
    return base;
  }

  firstPathMatch(rules: readonly PermissionRule[], normalizedPath: string): PermissionRule | undefined {
    return rules.find((rule) => this.pathMatcher(rule)(normalizedPath));
  }
}

/**
 * A rule's specifier read as a path. A protected path is a real file name, not a pattern a person
 * wrote: when it does not parse as a glob (a directory named `a{b`) it names itself.
 */
function pathSpecifierOf(rule: PermissionRule): string | PathSpecifier {
  const specifier = rule.specifier ?? '**';
  if (rule.tool !== PROTECTION_TOOL) return specifier;
  try {
    return parsePathSpecifier(specifier);
  } catch {
    return parsePathSpecifier(escapeGlob(specifier));
  }
}

export function ruleAppliesToTool(rule: PermissionRule, toolName: string, mcpServer?: string): boolean {
  if (ruleMatchesToolName(rule, toolName)) return true;
  if (mcpServer === undefined) return false;
  return rule.tool === `mcp__${mcpServer}` || ruleMatchesToolName(rule, `mcp__${mcpServer}__${toolName}`);
}
