/**
 * OpenTelemetry for a quiver process: when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-specific
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, tool-call spans are exported over OTLP/HTTP.
 * Otherwise nothing is loaded and the runtime's spans stay non-recording. Read from the launch
 * environment: `serve` and `call` run with a minimal process environment.
 */
export async function startTelemetry(
  env: Readonly<Record<string, string | undefined>>,
): Promise<(() => Promise<void>) | undefined> {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (url === undefined) return undefined;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = new OTLPTraceExporter({ url, headers: otlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS) });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'quiver' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  provider.register();
  return () => provider.shutdown();
}

/** `key1=value1,key2=value2`, as the OTLP exporter specification writes headers. */
function otlpHeaders(spec: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (spec ?? '').split(',')) {
    const equals = pair.indexOf('=');
    if (equals > 0)
      headers[decodeURIComponent(pair.slice(0, equals).trim())] = decodeURIComponent(
        pair.slice(equals + 1).trim(),
      );
  }
  return headers;
}
