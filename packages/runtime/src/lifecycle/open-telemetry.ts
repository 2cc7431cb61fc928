import { createRequire } from 'node:module';

type OpenTelemetryApi = typeof import('@opentelemetry/api');

/** Where every copy of the OpenTelemetry API (major 1) keeps what was registered with it. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');
let api: OpenTelemetryApi | undefined;

/**
 * The OpenTelemetry API, loaded the first time it is asked for after something registered with
 * it (a tracer provider, a propagator, a context manager): until then there is nothing a span
 * could be recorded by or propagated through, and a process that never traces never loads it.
 * Loaded with require (synchronous, the API's CommonJS copy), which shares the ESM copy's
 * registrations through the same global.
 */
export function openTelemetry(): OpenTelemetryApi | undefined {
  if (api !== undefined) return api;
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
  api = createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetryApi;
  return api;
}
