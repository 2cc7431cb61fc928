import type { ToolDefinitionLite } from '@quiver/types';
import type { PoolTool, ToolPool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

/** The primitives a script reaches inside the repl tool; REPL mode takes them off the model's list. */
export const REPL_WRAPPED_TOOLS: readonly string[] = [
  'terminal',
  'read_file',
  'write_file',
  'edit_file',
  'multi_edit',
  'apply_patch',
  'list_dir',
  'file_search',
  'grep_search',
];

/** A tool that calls other tools of the session (it declares the `tools` capability). */
export function callsOtherTools(tool: PoolTool): boolean {
  return tool.tool.capabilities?.tools === true;
}

export interface ReplModeResult extends StageResult {
  /** Tools taken off the list that scripts still call. */
  inner: PoolTool[];
}

/**
 * REPL mode, after deny rules and agent filters (a tool they removed is not reachable inside
 * either): when a repl tool is still in the pool, the primitives it wraps leave the model's
 * list and stay callable from its scripts. Without one, nothing changes.
 */
export function applyReplMode(tools: readonly PoolTool[], options: { repl?: boolean }): ReplModeResult {
  const result: ReplModeResult = { kept: [], removed: [], diagnostics: [], inner: [] };
  const repl = options.repl
    ? tools.find((tool) => tool.source === 'builtin' && callsOtherTools(tool))
    : undefined;
  const wrapped = new Set(REPL_WRAPPED_TOOLS);
  for (const tool of tools) {
    if (repl && tool.source === 'builtin' && wrapped.has(tool.name)) {
      result.inner.push(tool);
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'repl',
          rule: 'repl: true',
          reason: `reachable inside the ${repl.name} tool as tools.${tool.name}(…), not listed on its own`,
        },
      });
      continue;
    }
    result.kept.push(tool);
  }
  return result;
}

/**
 * What a script may call: the listed tools (deferred ones too) and the ones REPL mode took off
 * the list, but never a tool that itself runs scripts.
 */
export function innerCallable(pool: ToolPool): Map<string, PoolTool> {
  const callable = new Map<string, PoolTool>();
  for (const [name, tool] of pool.executables) if (!callsOtherTools(tool)) callable.set(name, tool);
  for (const [name, tool] of pool.innerTools ?? []) callable.set(name, tool);
  return callable;
}

/** `read_file({ path, offset?, limit? })`: a call shape short enough to list many of in a description. */
export function compactSignature(name: string, parameters: Record<string, unknown>): string {
  const properties = Object.keys((parameters.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((parameters.required as string[] | undefined) ?? []);
  if (properties.length === 0) return `${name}()`;
  const fields = properties.map((property) => (required.has(property) ? property : `${property}?`));
  return `${name}({ ${fields.join(', ')} })`;
}

/**
 * The repl tool's description names what its scripts can call: the tools listed in full and
 * the ones REPL mode took off the list. Deferred tools stay behind `tools.search`, so REPL mode
 * never lists more than deferral allows.
 */
export function describeInnerTools(
  definition: ToolDefinitionLite,
  definitions: readonly ToolDefinitionLite[],
  inner: readonly PoolTool[],
  skip: ReadonlySet<string>,
): ToolDefinitionLite {
  const signatures = [
    ...definitions
      .filter((other) => !other.deferLoading && other.name !== definition.name && !skip.has(other.name))
      .map((other) => compactSignature(other.name, other.parameters)),
    ...inner.map((tool) => compactSignature(tool.name, tool.parameters)),
  ];
  if (signatures.length === 0) return definition;
  return {
    ...definition,
    description: `${definition.description}\nCallable as tools.<name>(args): ${signatures.join('; ')}.`,
  };
}
