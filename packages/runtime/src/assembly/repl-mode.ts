import type { ToolDefinitionLite } from '@quiver/types';
import type { PoolTool, ToolPool } from '../contracts.js';
import type { StageResult } from './stage-result.js';
import { declareTools } from './tool-declarations.js';

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

/**
 * The repl tool's description declares, in TypeScript, what its scripts can call: the built-in
 * tools listed in full and the ones REPL mode took off the list. MCP and external tools are found
 * with `tools.search` (whose answers carry their declarations), so a server connecting never
 * changes this description, the prefix of the tool list that prompt caches keep. Deferred tools
 * stay behind `tools.search` too, so REPL mode never lists more than deferral allows.
 */
export function describeInnerTools(
  definition: ToolDefinitionLite,
  definitions: readonly ToolDefinitionLite[],
  inner: readonly PoolTool[],
  skip: ReadonlySet<string>,
  builtIn: ReadonlySet<string>,
): ToolDefinitionLite {
  const declared = [
    ...definitions.filter(
      (other) =>
        !other.deferLoading &&
        other.name !== definition.name &&
        !skip.has(other.name) &&
        builtIn.has(other.name),
    ),
    ...inner.map((tool) => ({
      name: tool.name,
      description: tool.tool.description,
      parameters: tool.parameters,
      ...(tool.tool.outputSchema === undefined ? {} : { outputSchema: tool.tool.outputSchema }),
    })),
  ];
  if (declared.length === 0) return definition;
  return {
    ...definition,
    description: `${definition.description}\nThe built-in tools a script calls, declared in TypeScript (MCP and other tools: \`await tools.search(query)\`, each answer with its declaration):\n${declareTools(declared)}`,
  };
}
