import {
  type ErrorCode,
  fail,
  ok,
  type PluginContext,
  type PluginDefinition,
  QuiverError,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolHook,
  type ToolResult,
  type ToolResultReducer,
} from '@quiver/types';
import { z } from 'zod';
import { loadFailures } from './load-check.js';

export interface ContractProblem {
  subject: string;
  problem: string;
  /** The host's error code when the problem is that the plugin does not load. */
  code?: string;
  /** How to fix it, when the host says. */
  fix?: string;
}

export interface ContractOptions {
  /** The plugin's settings, as `pluginConfig.<id>` in quiver.yaml gives them. */
  config?: Record<string, unknown>;
  /**
   * Load the first-party plugins beside it, as `quiver` does (from @quiver/wiring, which
   * @quiver/cli brings): a tool name one of them uses, such as `read_file`, fails the check.
   */
  firstPartyPlugins?: boolean;
}

const SAMPLE_OUTPUTS = [
  '',
  'short',
  'line\n'.repeat(50),
  'x'.repeat(20_000),
  Array.from({ length: 500 }, (_, i) => `row ${i}: ${'data '.repeat(i % 7)}`).join('\n'),
];

async function collect(plugin: PluginDefinition<any, any>, config: Record<string, unknown>) {
  const tools: Tool[] = [];
  const reducers: ToolResultReducer[] = [];
  const hooks: ToolHook[] = [];
  const services = {
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    config,
    paths: { workspace: process.cwd(), dataDir: process.cwd(), configDir: process.cwd() },
    lifecycle: { onShutdown() {}, onDemand() {} },
    events: { publish() {} },
  };
  const context: PluginContext<any> = {
    pluginId: plugin.id,
    services,
    registerTool: (tool) => {
      tools.push(tool);
      return () => {};
    },
    registerReducer: (reducer) => {
      reducers.push(reducer);
      return () => {};
    },
    registerHook: (hook) => {
      hooks.push(hook);
      return () => {};
    },
    registerBackend: () => () => {},
  };
  await plugin.register(context);
  return { tools, reducers, hooks };
}

/**
 * Checks what a plugin registers against the contract: tool names valid, descriptions present,
 * input schemas derivable to JSON Schema (object schemas), reducers never growing output.
 */
export async function checkPluginContract(
  plugin: PluginDefinition<any, any>,
  options: ContractOptions = {},
): Promise<ContractProblem[]> {
  const problems: ContractProblem[] = (await loadFailures(plugin, options)).map((failure) => ({
    subject: failure.plugin,
    problem: `does not load: ${failure.message}`,
    code: failure.code,
    ...(failure.fix ? { fix: failure.fix } : {}),
  }));
  const parsed = plugin.config ? plugin.config.safeParse(options.config ?? {}) : undefined;
  // Settings that do not parse were reported by the load; what register() would do with them is unknown.
  if (parsed?.success === false) return problems;
  let collected: Awaited<ReturnType<typeof collect>>;
  try {
    collected = await collect(plugin, parsed?.data ?? options.config ?? {});
  } catch (error) {
    if (problems.length === 0)
      problems.push({ subject: plugin.id, problem: `register() threw: ${(error as Error).message}` });
    return problems;
  }
  const { tools, reducers } = collected;
  if (tools.length === 0 && reducers.length === 0)
    problems.push({ subject: plugin.id, problem: 'registers no tools and no reducers' });
  const names = new Set<string>();
  for (const tool of tools) {
    if (!TOOL_NAME_PATTERN.test(tool.name))
      problems.push({ subject: tool.name, problem: 'name must be 1–64 chars of [a-zA-Z0-9_-]' });
    if (names.has(tool.name)) problems.push({ subject: tool.name, problem: 'registered twice' });
    names.add(tool.name);
    if (!tool.description || tool.description.trim().length < 10)
      problems.push({ subject: tool.name, problem: 'description missing or shorter than 10 characters' });
    if (!tool.capabilities || typeof tool.capabilities !== 'object')
      problems.push({ subject: tool.name, problem: 'capabilities must be an object ({} for none)' });
    try {
      const schema = tool.parametersJsonSchema ?? (z.toJSONSchema(tool.input) as Record<string, unknown>);
      if (schema.type !== 'object')
        problems.push({
          subject: tool.name,
          problem: `input schema must be an object schema, got type ${String(schema.type)}`,
        });
    } catch (error) {
      problems.push({
        subject: tool.name,
        problem: `input schema cannot be converted to JSON Schema: ${(error as Error).message}`,
      });
    }
  }
  for (const reducer of reducers) {
    const samples: ToolResult[] = [
      ...SAMPLE_OUTPUTS.map((text) => ok(text, { structured: { sample: true } })),
      ...SAMPLE_OUTPUTS.map((text) => fail('execution_failed', text)),
    ];
    for (const sample of samples) {
      let reduced: ToolResult;
      try {
        reduced = reducer.reduce(sample, { toolName: reducer.tool, args: {} });
      } catch (error) {
        problems.push({
          subject: `reducer ${reducer.tool}`,
          problem: `throws on a ${sampleSize(sample)} result: ${(error as Error).message}`,
        });
        continue;
      }
      if (text(reduced).length > text(sample).length) {
        problems.push({
          subject: `reducer ${reducer.tool}`,
          problem: `grows a ${sampleSize(sample)} result to ${text(reduced).length} chars`,
        });
      }
      if (sample.structured !== undefined && reduced.structured === undefined) {
        problems.push({ subject: `reducer ${reducer.tool}`, problem: 'drops structured data' });
      }
    }
  }
  return problems;
}

/**
 * Throws one QuiverError listing every contract problem (with the code and fix of the first
 * problem the host reported, if any); resolves when there are none.
 */
export async function expectPluginContract(
  plugin: PluginDefinition<any, any>,
  options: ContractOptions = {},
): Promise<void> {
  const problems = await checkPluginContract(plugin, options);
  if (problems.length === 0) return;
  const fixes = [...new Set(problems.flatMap((p) => (p.fix ? [p.fix] : [])))];
  throw new QuiverError(
    (problems.find((p) => p.code)?.code ?? 'plugin_bad_manifest') as ErrorCode,
    `Plugin "${plugin.id}" breaks the contract:\n${problems.map((p) => `  - ${p.subject}: ${p.code ? `[${p.code}] ` : ''}${p.problem}`).join('\n')}`,
    {
      ...(fixes.length > 0 ? { fix: fixes.join(' ') } : {}),
      details: { problems },
    },
  );
}

const text = (result: ToolResult) => (result.ok ? result.value : result.error);
const sampleSize = (result: ToolResult) => `${text(result).length}-char ${result.ok ? 'ok' : 'failed'}`;
