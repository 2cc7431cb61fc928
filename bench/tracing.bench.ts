import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { context, propagation, trace } from '@opentelemetry/api';
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '@quiver/core';
import { createSession, DefaultHookRegistry } from '@quiver/runtime';
import { ok, type ToolCall } from '@quiver/types';
import { Bench } from 'tinybench';
// The span hook as built and shipped (internal to the runtime, so imported from its build).
import {
  endCallSpan,
  inCallSpan,
  recordPermission,
  startCallSpan,
} from '../packages/runtime/dist/lifecycle/call-span.js';
import { echo, echoPolicy } from './echo-fixture.js';
import { median, p50, round } from './measure.js';

/**
 * What the tool-call span costs with tracing off (no tracer provider registered, the default):
 * the span hook exactly as the pipeline runs it per call (start, permission, the tool run in the
 * span, end) against the same calls with no span and no tracer lookup, set against the whole
 * lifecycle of a session call measured in the same rounds. Then, for scale, the lifecycle with
 * tracing on (an SDK provider batching to an exporter that drops the spans).
 *
 * Each figure is the median of several short rounds of p50 latency; within a round the variants
 * run back to back, so the machine's load shifts them together.
 */

const ROUNDS = 9;
const ROUND_MS = 250;

const result = ok('x');
const toolRun = async () => result;
let callNumber = 0;

/** The pipeline's span work for one call, around a tool that does nothing. */
async function withSpanHook(): Promise<void> {
  const span = startCallSpan({
    callId: `call-${++callNumber}`,
    toolName: 'echo',
    sessionId: 'bench',
    turn: 1,
    mcpServer: undefined,
    parentCallId: undefined,
  });
  recordPermission(span, 'allow');
  const executed = await inCallSpan(span, toolRun);
  endCallSpan(span, executed, 1);
}

/** The same call with no span: what a build without the hook would do. */
async function withoutSpanHook(): Promise<void> {
  callNumber += 1;
  await toolRun();
}

/** Drops every span: the cost of recording and batching without the network. */
const droppingExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

interface Lifecycle {
  execute(): Promise<unknown>;
  close(): Promise<void>;
}

async function openLifecycle(): Promise<Lifecycle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quiver-bench-tracing-'));
  const reducers = new DefaultToolResultReducerRegistry();
  const registry = new DefaultToolRegistry({ reducers });
  registry.register(echo);
  const session = createSession(
    {
      registry,
      reducers,
      backends: { has: () => false, resolve: () => Promise.reject(new Error('no backends')) },
      hooks: new DefaultHookRegistry(),
      policy: echoPolicy,
      workspace: dataDir,
      dataDir,
    },
    { sessionId: 'bench-tracing' },
  );
  const calls: ToolCall[] = [{ name: 'echo', args: { text: 'payload' } }];
  let turn = 0;
  const [warm] = await session.execute(calls);
  if (!warm?.ok) throw new Error(`the lifecycle refused the benchmark call: ${JSON.stringify(warm)}`);
  return {
    execute: () => session.execute(calls, { turn: ++turn }),
    close: async () => {
      await session.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function rounds(tasks: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  for (let index = 0; index < ROUNDS; index += 1) {
    const bench = new Bench({ time: ROUND_MS, warmupTime: index === 0 ? 300 : 50 });
    for (const [name, task] of Object.entries(tasks)) bench.add(name, task);
    globalThis.gc?.();
    await bench.run();
    for (const task of bench.tasks) samples[task.name]?.push(p50(task));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

export async function run(): Promise<void> {
  if (trace.getTracerProvider().getTracer('probe').startSpan('probe').isRecording())
    throw new Error('a tracer provider is already registered: this benchmark measures tracing off');
  const lifecycle = await openLifecycle();
  let off: Record<string, number>;
  let on: Record<string, number>;
  try {
    off = await rounds({
      'no span': withoutSpanHook,
      'span hook, tracing off': withSpanHook,
      'lifecycle, tracing off': lifecycle.execute,
    });
    const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] });
    provider.register();
    try {
      on = await rounds({ 'lifecycle, tracing on': lifecycle.execute });
    } finally {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    }
  } finally {
    await lifecycle.close();
  }
  const hook = (off['span hook, tracing off'] ?? Number.NaN) - (off['no span'] ?? Number.NaN);
  const pipeline = off['lifecycle, tracing off'] ?? Number.NaN;
  const traced = on['lifecycle, tracing on'] ?? Number.NaN;
  console.log(
    `\ntracing off: the tool-call span hook against no span, and the whole session call, medians of ${ROUNDS} rounds of p50 latency`,
  );
  console.table([
    { measured: 'call with no span (baseline)', 'µs/call': round(off['no span'] ?? Number.NaN) },
    {
      measured: 'call with the span hook, tracing off',
      'µs/call': round(off['span hook, tracing off'] ?? Number.NaN),
    },
    { measured: 'span hook alone (difference)', 'µs/call': round(hook) },
    { measured: 'session.execute, tracing off', 'µs/call': round(pipeline) },
    { measured: 'session.execute, tracing on (SDK, spans dropped)', 'µs/call': round(traced) },
  ]);
  console.log(
    `span hook with tracing off / whole call: ${round((hook / pipeline) * 100)} % ` +
      `(the pipeline with tracing off runs at ${round(pipeline / (pipeline - hook))}× a pipeline without the hook); ` +
      `tracing on / off: ${round(traced / pipeline)}×`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
