import { matchesNamePattern, QuiverError } from '@quiver/types';

/** A parsed `Tool(specifier)` rule. `tool` may end in `*` (e.g. `mcp__github__*`). */
export interface PermissionRule {
  /** The rule as written. */
  source: string;
  tool: string;
  /** Absent for a blanket rule on the whole tool. */
  specifier?: string;
}

const RULE = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

export function parsePermissionRule(source: string): PermissionRule {
  const text = source.trim();
  const match = RULE.exec(text);
  if (!match || !match[1]) {
    throw new QuiverError('config_invalid', `Invalid permission rule "${source}".`, {
      fix: 'Write a rule as ToolName or ToolName(specifier), e.g. terminal(git status:*), read_file(src/**) or mcp__github.',
      details: { rule: source },
    });
  }
  const specifier = match[2];
  if (specifier !== undefined && specifier.trim() === '') {
    throw new QuiverError('config_invalid', `Permission rule "${source}" has an empty specifier.`, {
      fix: `Drop the parentheses for a rule on the whole tool ("${match[1]}"), or put a command, path or domain inside them.`,
      details: { rule: source },
    });
  }
  return specifier === undefined
    ? { source: text, tool: match[1] }
    : { source: text, tool: match[1], specifier: specifier.trim() };
}

/** True when the rule's tool part names `toolName` (exact, `*` glob, or `mcp__server` for the whole server). */
export function ruleMatchesToolName(rule: PermissionRule, toolName: string): boolean {
  if (rule.tool === toolName) return true;
  if (rule.tool.includes('*')) return matchesNamePattern(rule.tool, toolName);
  // `mcp__server` names every tool of that server.
  if (rule.tool.startsWith('mcp__') && rule.tool.split('__').length === 2) {
    return toolName.startsWith(`${rule.tool}__`);
  }
  return false;
}
