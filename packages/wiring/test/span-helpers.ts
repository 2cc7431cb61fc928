import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Quiver } from '../src/index.js';
import type { McpWorkspace } from './mcp-helpers.js';

export interface TracedSuite {
  /** The spans finished so far in this test (reset after each). */
  exporter: () => InMemorySpanExporter;
  provider: () => NodeTracerProvider;
  /** Quivers and workspaces a test made: closed and removed after it. */
  open: Quiver[];
  made: McpWorkspace[];
}

/**
 * A tracer provider with an in-memory exporter for the whole describe block, registered once:
 * the API's global provider is process-wide, whichever copy of the API asks. Call inside `describe`.
 */
export function useTracedSuite(): TracedSuite {
  let exporter: InMemorySpanExporter | undefined;
  let provider: NodeTracerProvider | undefined;
  const suite: TracedSuite = {
    exporter: () => exporter as InMemorySpanExporter,
    provider: () => provider as NodeTracerProvider,
    open: [],
    made: [],
  };
  beforeAll(() => {
    exporter = new InMemorySpanExporter();
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
  });
  afterAll(async () => {
    await provider?.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  afterEach(async () => {
    await Promise.all(suite.open.splice(0).map((quiver) => quiver.close()));
    for (const workspace of suite.made.splice(0)) workspace.remove();
    exporter?.reset();
  });
  return suite;
}
