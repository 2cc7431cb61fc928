import type { Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { ToolResult } from '@quiver/types';
import { openTelemetry } from './open-telemetry.js';

/**
 * One OpenTelemetry span per tool call, named and attributed after the GenAI semantic
 * conventions for tool execution (`execute_tool <name>`, `gen_ai.tool.*`). With nothing
 * registered with the OpenTelemetry API (the default) there is no span and the API is not even
 * loaded; `quiver` registers a provider when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
let cached: { provider: TracerProvider; tracer: Tracer } | undefined;

/**
 * Looked up per call, not once at load: a provider registered later, or through the other
 * (CommonJS or ESM) copy of the API package, is found through the API's global registry only
 * when asked after it was registered.
 */
function tracer(trace: NonNullable<ReturnType<typeof openTelemetry>>['trace']): Tracer {
  const provider = trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer('@quiver/runtime') };
  return cached.tracer;
}

export interface CallSpanStart {
  callId: string;
  toolName: string;
  sessionId: string;
  turn: number;
  mcpServer: string | undefined;
  parentCallId: string | undefined;
  /** A repl script's inner calls are children of the repl call's span. */
  parentSpan?: Span | undefined;
}

export function startCallSpan(call: CallSpanStart): Span | undefined {
  const api = openTelemetry();
  if (api === undefined) return undefined;
  const { context, trace } = api;
  const parent = call.parentSpan ? trace.setSpan(context.active(), call.parentSpan) : undefined;
  const span = tracer(trace).startSpan(`execute_tool ${call.toolName}`, {}, parent);
  if (!span.isRecording()) return span;
  span.setAttributes({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.toolName,
    'gen_ai.tool.call.id': call.callId,
    'gen_ai.tool.type': call.mcpServer === undefined ? 'function' : 'extension',
    'quiver.session.id': call.sessionId,
    'quiver.turn': call.turn,
  });
  if (call.mcpServer !== undefined) span.setAttribute('quiver.mcp.server', call.mcpServer);
  if (call.parentCallId !== undefined) span.setAttribute('quiver.parent_call.id', call.parentCallId);
  return span;
}

/**
 * Runs the tool with its call's span active, so that what the tool does (a bridged server's
 * `tools/call`) is traced as a child. Not recording: no context is made, the call costs nothing more.
 */
export function inCallSpan<T>(span: Span | undefined, run: () => T): T {
  const api = span?.isRecording() ? openTelemetry() : undefined;
  if (span === undefined || api === undefined) return run();
  return api.context.with(api.trace.setSpan(api.context.active(), span), run);
}

/** The permission decision that let the call run or stopped it. */
export function recordPermission(span: Span | undefined, decision: 'allow' | 'deny'): void {
  if (span?.isRecording()) span.setAttribute('quiver.permission.decision', decision);
}

export function endCallSpan(span: Span | undefined, result: ToolResult, durationMs: number): void {
  if (span === undefined) return;
  if (span.isRecording()) {
    span.setAttributes({
      'quiver.tool.outcome': result.ok ? 'ok' : result.code,
      'quiver.duration_ms': durationMs,
    });
    if (!result.ok) {
      span.setAttribute('error.type', result.code);
      // A recording span means something registered with the API, so it loads.
      const error = openTelemetry()?.SpanStatusCode.ERROR;
      if (error !== undefined) span.setStatus({ code: error, message: result.error.slice(0, 200) });
    }
  }
  span.end();
}
