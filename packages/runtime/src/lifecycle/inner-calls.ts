import type {
  CapabilityBackendRegistry,
  InnerToolInfo,
  ToolDefinitionLite,
  ToolResult,
  ToolsHandle,
} from '@quiver/types';
import { toDefinition } from '../assembly/definitions.js';
import { innerCallable } from '../assembly/repl-mode.js';
import type { ToolPool } from '../contracts.js';
import { searchTools } from '../search/search-tools.js';
import type { CallState } from './call-events.js';

/** Characters an inner call's result may take; the script sees the tool's own text up to this. */
export const INNER_RESULT_CHARS = 100_000;

/** Runs one inner call through the whole pipeline, against `pool`, under `signal`. */
export type RunInnerCall = (
  name: string,
  args: unknown,
  parent: CallState,
  pool: ToolPool,
  signal: AbortSignal,
) => Promise<ToolResult>;

/**
 * The `tools` capability of one call: inner calls go through the same pipeline as the model's
 * (rules, hooks, events marked with the parent's call id, the log), against the pool the parent
 * was called from plus what REPL mode took off the list. The capability is always the session's:
 * no plugin backend can stand in for it.
 */
export function withInnerCalls(
  backends: CapabilityBackendRegistry,
  parent: CallState,
  pool: ToolPool,
  signal: AbortSignal,
  run: RunInnerCall,
): CapabilityBackendRegistry {
  return {
    has: (capability) => capability === 'tools' || backends.has(capability),
    resolve: async (request) => {
      if (request.capability !== 'tools') return backends.resolve(request);
      return innerToolsHandle(parent, pool, signal, run) as never;
    },
  };
}

function innerToolsHandle(
  parent: CallState,
  pool: ToolPool,
  signal: AbortSignal,
  run: RunInnerCall,
): ToolsHandle {
  const callable = innerCallable(pool);
  const view: ToolPool = { ...pool, executables: callable };
  const definitions: ToolDefinitionLite[] = [
    ...pool.definitions.filter((definition) => callable.has(definition.name)),
    ...[...(pool.innerTools?.values() ?? [])].map(toDefinition),
  ];
  return {
    listed: definitions.filter((definition) => !definition.deferLoading).map(info),
    maxChars: INNER_RESULT_CHARS,
    call(name, args, options) {
      const combined = options?.signal ? AbortSignal.any([signal, options.signal]) : signal;
      return run(name, args, parent, view, combined);
    },
    async search(query, limit = 10) {
      return searchTools(query, definitions, limit).map(info);
    },
  };
}

function info(definition: ToolDefinitionLite): InnerToolInfo {
  return { name: definition.name, description: definition.description, parameters: definition.parameters };
}
