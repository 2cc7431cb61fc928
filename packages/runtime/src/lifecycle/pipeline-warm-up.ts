import { validateArgsNow } from '@quiver/core';
import { DEFAULT_RESULT_BUDGET, ok, type Tool } from '@quiver/types';
import { z } from 'zod';
import type { HookRegistry, PoolTool, ToolPool } from '../contracts.js';
import { createEventFactory } from '../events/event-factory.js';
import { DEFAULT_MODEL_PROFILE } from '../profiles/model-profiles.js';
import { type PipelineSession, runCallBatch } from './call-pipeline.js';
import { PathLocks } from './path-locks.js';
import type { PermissionDecider } from './permission-decider.js';

/** The stand-in's name: not a tool of any pool, so no rule, hook or reducer of the session names it. */
export const WARM_UP_TOOL = 'quiver_pipeline_warm_up';

const NO_HOOKS: HookRegistry = {
  register: () => () => {},
  list: () => [],
  removeOwner: () => {},
};

const ALLOW: PermissionDecider = {
  decide: async () => ({ behavior: 'allow', reason: 'warm-up' }),
  decideNow: () => ({ behavior: 'allow', reason: 'warm-up' }),
  grant: () => undefined,
};

/**
 * Runs one call of the pipeline — request, lookup, argument check, permission step, start, core's
 * runner with its deadline, reducer lookup, budget trim, completion — on a stand-in tool that
 * returns an empty text, so that the first real call does not pay V8's first compilation of that
 * code. Nothing of it is seen: its events go nowhere (`record` gets them, for a caller that
 * prepares their log form), no hook of the session runs, no permission is asked or granted, no
 * span is traced, and the stand-in is in no pool. The stand-in checks its arguments with the
 * schema of the first tool of `pool` (when the session has assembled one), and every other distinct schema of the pool parses `{}`
 * once (zod schemas are pure), so their first parses are done too.
 */
export async function warmPipeline(
  session: PipelineSession,
  pool: ToolPool | undefined,
  record: (event: ReturnType<PipelineSession['sink']['makeEvent']>) => void,
): Promise<void> {
  const model = pool?.executables.values().next().value as PoolTool | undefined;
  const tool: Tool = {
    name: WARM_UP_TOOL,
    description: '',
    input: model?.tool.input ?? NO_ARGUMENTS,
    capabilities: {},
    // A deadline, so that core's runner arms and disarms its timer as a real call does.
    timeouts: model?.tool.timeouts ?? WARM_UP_TIMEOUTS,
    ...(model?.tool.mcp === undefined ? {} : { mcp: model.tool.mcp }),
    execute: () => ok(''),
  };
  const entry: PoolTool = {
    name: WARM_UP_TOOL,
    source: model?.source ?? 'builtin',
    tool,
    deferred: false,
    parameters: {},
    ...(model?.mcpServer === undefined ? {} : { mcpServer: model.mcpServer }),
  };
  const quiet: PipelineSession = {
    ...session,
    hooks: NO_HOOKS,
    permissions: ALLOW,
    resolver: undefined,
    writeLocks: new PathLocks(),
    sink: { makeEvent: createEventFactory(session.sessionId), publish: record },
    openCalls: new Set(),
    emit: () => {},
    track: () => {},
    traced: false,
  };
  await runCallBatch(
    [{ id: 'warm-up', name: WARM_UP_TOOL, args: {} }],
    {
      pool: {
        definitions: [],
        executables: new Map([[WARM_UP_TOOL, entry]]),
        signature: '',
        diagnostics: [],
        removed: new Map(),
        profile: pool?.profile ?? DEFAULT_MODEL_PROFILE,
        externalVersion: pool?.externalVersion ?? 0,
      },
      turn: 0,
      signal: new AbortController().signal,
      dryRun: false,
      budget: DEFAULT_RESULT_BUDGET,
      attachments: undefined,
    },
    quiet,
  );
  if (pool !== undefined) firstParses(pool);
}

/** Schemas already parsed by a warm-up (zod's compiled fast path is the schema's own, for the process). */
const parsed = new WeakSet<object>();

/** The stand-in's deadline when there is no pool yet to take one from (it answers at once). */
const WARM_UP_TIMEOUTS = { defaultMs: 60_000, maxMs: 60_000 };

/** The stand-in's arguments when there is no pool yet to take a schema from. */
const NO_ARGUMENTS = z.object({});

/** How many distinct argument schemas of a pool the warm-up parses once. */
const SCHEMAS_TO_PARSE = 32;

/**
 * Each argument schema of the pool not parsed by an earlier warm-up parses `{}` once (zod
 * compiles a schema's fast path on its first parse), up to SCHEMAS_TO_PARSE of them at a time;
 * the results are dropped.
 */
export function firstParses(pool: ToolPool): void {
  let count = 0;
  for (const { tool } of pool.executables.values()) {
    if (count >= SCHEMAS_TO_PARSE) return;
    if (parsed.has(tool.input)) continue;
    parsed.add(tool.input);
    count += 1;
    try {
      const checked = validateArgsNow(tool.input, {}, tool.name);
      if (checked instanceof Promise) checked.catch(() => undefined);
    } catch {
      // A schema that throws does so again on the call that uses it, which reports it.
    }
  }
}
