import type { RequestId } from '@modelcontextprotocol/client';
import type { Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { type CallOnceOptions, type CallOutcome, callOnce } from './call-once.js';
import type { TransportKind } from './open-client.js';
import { type OpenTelemetryApi, openTelemetry } from './open-telemetry.js';
import type { ServerAnswer } from './send-tool-call.js';

let cached: { provider: TracerProvider; tracer: Tracer } | undefined;

/** Looked up per call: a provider registered after the bridge loaded is found only when asked. */
function tracer({ trace }: OpenTelemetryApi): Tracer {
  const provider = trace.getTracerProvider();
  if (cached?.provider !== provider) cached = { provider, tracer: provider.getTracer('@quiver/mcp-bridge') };
  return cached.tracer;
}

/** `network.transport` of the semantic conventions: stdio is a pipe, the HTTP transports run on TCP. */
const NETWORK_TRANSPORT: Record<TransportKind, string> = {
  stdio: 'pipe',
  'streamable-http': 'tcp',
  sse: 'tcp',
};

/**
 * One `tools/call` to a bridged server as an OpenTelemetry client span, after the MCP semantic
 * conventions (`tools/call <tool>`, kind client, `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`, `error.type`). It is a child of the tool call's span, which the runtime
 * makes active while the tool runs; a retried call is a second span. With no tracer provider
 * registered (nothing registered with the OpenTelemetry API, which is then not even loaded) the
 * call goes through untraced.
 */
export function tracedCallOnce(
  transport: TransportKind | undefined,
  options: CallOnceOptions,
): Promise<CallOutcome> {
  const api = openTelemetry();
  if (api === undefined) return callOnce(options);
  const tool = options.definition.name;
  const span = tracer(api).startSpan(`tools/call ${tool}`, { kind: api.SpanKind.CLIENT });
  if (!span.isRecording()) {
    span.end();
    return callOnce(options);
  }
  return recordedCallOnce(api, span, tool, transport, options);
}

async function recordedCallOnce(
  { context, propagation, trace, SpanStatusCode }: OpenTelemetryApi,
  span: Span,
  tool: string,
  transport: TransportKind | undefined,
  options: CallOnceOptions,
): Promise<CallOutcome> {
  span.setAttributes({
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'quiver.mcp.server': options.server,
    ...(transport ? { 'network.transport': NETWORK_TRANSPORT[transport] } : {}),
  });
  let requestId: RequestId | undefined;
  const answer: ServerAnswer = {};
  const startedAt = performance.now();
  try {
    const outcome = await context.with(trace.setSpan(context.active(), span), () =>
      callOnce({
        ...options,
        trace: {
          // The conventions' propagation: the span's context travels in the request's `_meta`.
          inject: (meta) => propagation.inject(context.active(), meta),
          answer,
          sent: (id) => {
            requestId = id;
          },
        },
      }),
    );
    if (requestId !== undefined) span.setAttribute('jsonrpc.request.id', String(requestId));
    recordOutcome(span, outcome, answer, SpanStatusCode.ERROR);
    span.setAttribute('quiver.duration_ms', performance.now() - startedAt);
    return outcome;
  } finally {
    span.end();
  }
}

/**
 * `error.type` as the conventions say: `tool_error` when the server answered with `isError`, the
 * JSON-RPC error code when it refused the call (also `rpc.response.status_code`); else what the
 * bridge saw (`timeout`, `aborted`, `connection_lost`, `not_connected`).
 */
function recordOutcome(span: Span, outcome: CallOutcome, answer: ServerAnswer, errorStatus: number): void {
  let errorType: string | undefined;
  if (outcome.kind !== 'result') errorType = outcome.kind;
  else if (answer.isError === true) errorType = 'tool_error';
  else if (answer.rpcCode !== undefined) {
    errorType = String(answer.rpcCode);
    span.setAttribute('rpc.response.status_code', errorType);
  } else if (!outcome.result.ok) errorType = outcome.result.code;
  span.setAttribute('quiver.tool.outcome', errorType ?? 'ok');
  if (errorType === undefined) return;
  span.setAttribute('error.type', errorType);
  const message = outcome.kind === 'result' && !outcome.result.ok ? outcome.result.error : outcome.kind;
  span.setStatus({ code: errorStatus, message: message.slice(0, 200) });
}
