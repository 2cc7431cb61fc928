import path from 'node:path';
import { QuiverError } from '@quiver/types';
import { escapeGlob } from './path-specifier.js';
import type { ProtectedPath } from './protected-paths.js';
import type { PermissionRule } from './rule.js';
import { realWorkspace } from './workspace-path.js';

const DEFAULT_REASON = 'Quiver loads this file as configuration';

/** The tool part of a protection rule: not a valid tool name, so no tool's own rules list it. */
export const PROTECTION_TOOL = 'quiver:protected';

/** A protected path in the shape of a deny rule, with what to tell the caller. */
export interface ProtectionRule extends PermissionRule {
  /** "protected: …": why, and what to do instead. */
  explanation: string;
  /** Reads are denied too (a secret such as the console's). */
  readDenied?: boolean;
}

export function isProtectionRule(rule: PermissionRule): rule is ProtectionRule {
  return rule.tool === PROTECTION_TOOL;
}

/**
 * Protected paths as write denies that no allow rule, grant or layer can lift. They are kept
 * apart from the rule layers and joined to every write-path deny lookup, so file tools, shell
 * redirections and shell arguments all meet them.
 */
export function protectionRules(
  entries: ReadonlyArray<string | ProtectedPath>,
  workspace: string,
): ProtectionRule[] {
  const root = realWorkspace(workspace);
  const seen = new Set<string>();
  const rules: ProtectionRule[] = [];
  for (const entry of entries) {
    const {
      path: target,
      reason = DEFAULT_REASON,
      literal = false,
      read,
    } = typeof entry === 'string' ? { path: entry, read: undefined } : entry;
    if (typeof target !== 'string' || target.trim() === '' || target.startsWith('~')) {
      throw new QuiverError(
        'config_invalid',
        `Protected path ${JSON.stringify(target)} must be absolute or relative to the workspace.`,
        {
          fix: 'Give protected paths as absolute paths or paths relative to the workspace.',
          details: { path: String(target) },
        },
      );
    }
    const shown = path.isAbsolute(target) ? shownPath(target, root) : target;
    const source = `protected: ${reason} (${shown})`;
    if (seen.has(source)) continue;
    seen.add(source);
    rules.push({
      source,
      tool: PROTECTION_TOOL,
      specifier: literal ? escapeGlob(target) : target,
      explanation:
        read === 'denied'
          ? `is protected: ${reason}, so no rule allows a tool to read or write it`
          : `is protected: ${reason}, so no rule allows a tool to write it; change it yourself outside Quiver`,
      ...(read === 'denied' ? { readDenied: true } : {}),
    });
  }
  return rules;
}

function shownPath(absolute: string, root: string): string {
  const relative = path.relative(root, absolute);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
