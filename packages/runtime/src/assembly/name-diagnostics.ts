import {
  checkToolName,
  type NamedTool,
  namesTool,
  type ToolNameCatalog,
  type ToolNameCheck,
} from '../agents/tool-name-resolver.js';
import type { PoolDiagnostic, RemovalReason } from '../contracts.js';

/** A list of tool names as written, and the setting it was written in (`agents.reviewer.tools`). */
export interface NamedSetting {
  setting: string;
  names: readonly string[] | undefined;
}

/**
 * Warnings for names that refer to nothing: an unknown name would otherwise leave an allowlist
 * silently empty, or a deny rule silently without effect. A Claude Code name with no
 * counterpart here is reported separately, since the configuration itself is not wrong.
 */
export function toolNameDiagnostics(
  settings: readonly NamedSetting[],
  catalog: ToolNameCatalog | (() => ToolNameCatalog),
): PoolDiagnostic[] {
  const diagnostics: PoolDiagnostic[] = [];
  let checks: Map<string, ToolNameCheck> | undefined;
  let resolved: ToolNameCatalog | undefined;
  for (const { setting, names } of settings) {
    for (const name of names ?? []) {
      if (resolved === undefined) {
        resolved = typeof catalog === 'function' ? catalog() : catalog;
        checks = checksOf(resolved);
      }
      let check = checks?.get(name);
      if (check === undefined) {
        check = checkToolName(name, resolved);
        checks?.set(name, check);
      }
      if (check.status === 'unknown')
        diagnostics.push({
          level: 'warning',
          code: 'unknown_tool_name',
          message: `${setting} names "${name}", which matches no tool, alias, plugin or configured MCP server.`,
          tool: name,
        });
      else if (check.status === 'no_counterpart')
        diagnostics.push({
          level: 'warning',
          code: 'tool_name_without_counterpart',
          message: `${setting} names the Claude Code tool "${name}", which no tool here provides (a plugin tool provides it by declaring "${name}" in its aliases).`,
          tool: name,
        });
    }
  }
  return diagnostics;
}

const checksByCatalog = new WeakMap<ToolNameCatalog, Map<string, ToolNameCheck>>();

/** Checks already made against a catalog: reassembly re-asks the same names. */
function checksOf(catalog: ToolNameCatalog): Map<string, ToolNameCheck> {
  let checks = checksByCatalog.get(catalog);
  if (checks === undefined) {
    checks = new Map();
    checksByCatalog.set(catalog, checks);
  }
  return checks;
}

/**
 * Notes (session.info) for names a filter lists whose tools an earlier stage already removed (a
 * deny rule, simple mode, the tool's own availability): the name is right, the filter just has
 * nothing left to act on, and the note says which stage took the tool.
 */
export function removedToolNotes(
  settings: readonly NamedSetting[],
  catalog: ToolNameCatalog,
  present: readonly NamedTool[],
  removed: ReadonlyMap<string, RemovalReason>,
): PoolDiagnostic[] {
  const notes: PoolDiagnostic[] = [];
  for (const { setting, names } of settings) {
    for (const name of names ?? []) {
      if (present.some((tool) => namesTool(name, tool))) continue;
      for (const tool of catalog.tools) {
        const reason = removed.get(tool.name);
        if (reason === undefined || !namesTool(name, tool)) continue;
        notes.push({
          level: 'info',
          code: 'filtered_tool_removed',
          message: `${setting} names "${name}", but ${tool.name === name ? 'that tool' : `"${tool.name}"`} was already removed (${reason.rule}: ${reason.reason}).`,
          tool: tool.name,
        });
      }
    }
  }
  return notes;
}
