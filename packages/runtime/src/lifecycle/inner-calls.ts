import type {
  CapabilityBackendRegistry,
  InnerToolInfo,
  ToolDefinitionLite,
  ToolResult,
  ToolsHandle,
} from '@quiver/types';
import { toDefinition } from '../assembly/definitions.js';
import { innerCallable } from '../assembly/repl-mode.js';
import { declareTool } from '../assembly/tool-declarations.js';
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
  awaitTools?: (names?: readonly string[]) => Promise<ToolPool | undefined>,
): CapabilityBackendRegistry {
  return {
    has: (capability) => capability === 'tools' || backends.has(capability),
    resolve: async (request) => {
      if (request.capability !== 'tools') return backends.resolve(request);
      return innerToolsHandle(parent, pool, signal, run, awaitTools) as never;
    },
  };
}

/** What inner calls reach of a pool: the tools they may call and their definitions. */
function innerView(pool: ToolPool): { view: ToolPool; definitions: ToolDefinitionLite[] } {
  const callable = innerCallable(pool);
  return {
    view: { ...pool, executables: callable },
    definitions: [
      ...pool.definitions.filter((definition) => callable.has(definition.name)),
      ...[...(pool.innerTools?.values() ?? [])].map(toDefinition),
    ],
  };
}

function innerToolsHandle(
  parent: CallState,
  pool: ToolPool,
  signal: AbortSignal,
  run: RunInnerCall,
  awaitTools?: (names?: readonly string[]) => Promise<ToolPool | undefined>,
): ToolsHandle {
  let current = innerView(pool);
  let listed = current.definitions.filter((definition) => !definition.deferLoading).map(info);
  // A script passes the same signal (its call's) to every inner call: combined once, not per call,
  // as each AbortSignal.any costs more than the rest of an inner call's pipeline.
  let combined: { caller: AbortSignal; signal: AbortSignal } | undefined;
  const signalFor = (caller: AbortSignal | undefined): AbortSignal => {
    if (caller === undefined || caller === signal) return signal;
    if (combined?.caller !== caller) combined = { caller, signal: AbortSignal.any([signal, caller]) };
    return combined.signal;
  };
  return {
    /** Grows when a server that was starting connects during the call. */
    get listed() {
      return listed;
    },
    maxChars: INNER_RESULT_CHARS,
    async call(name, args, options) {
      const callSignal = signalFor(options?.signal);
      // A tool of an MCP server still starting: wait for it (bounded by the server's start-up).
      if (!current.view.executables.has(name) && awaitTools !== undefined) {
        const fresh = await awaitTools([name]);
        if (fresh !== undefined) {
          current = innerView(fresh);
          listed = current.definitions.filter((definition) => !definition.deferLoading).map(info);
        }
      }
      return run(name, args, parent, current.view, callSignal);
    },
    async search(query, limit = 10) {
      // Every server of the session has started (or failed to) before a search answers.
      if (awaitTools !== undefined) {
        const fresh = await awaitTools();
        if (fresh !== undefined) {
          current = innerView(fresh);
          listed = current.definitions.filter((definition) => !definition.deferLoading).map(info);
        }
      }
      return searchTools(query, current.definitions, limit).map((found) => ({
        ...info(found),
        declaration: declareTool(found),
      }));
    },
  };
}

function info(definition: ToolDefinitionLite): InnerToolInfo {
  return { name: definition.name, description: definition.description, parameters: definition.parameters };
}
