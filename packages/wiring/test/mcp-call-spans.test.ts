import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';
import { type McpWorkspace, mcpWorkspace } from './mcp-helpers.js';
import { useTracedSuite } from './span-helpers.js';

const TRACE_CONTEXT_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../extensions/mcp-bridge/test/fixtures/trace-context-server.mjs',
);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('a span per call to a bridged MCP server', () => {
  const { exporter, open, made } = useTracedSuite();

  async function bridged(): Promise<{ quiver: Quiver; workspace: McpWorkspace }> {
    const workspace = mcpWorkspace(
      { alpha: { trustAnnotations: true }, trace: { args: [TRACE_CONTEXT_SERVER] } },
      {
        dev: 'plugins: [mcp-bridge]\nmcpServers:\n  alpha: {}\n  trace: {}\npermissions:\n  allow: [mcp__alpha, mcp__trace]\n',
      },
      'dev',
    );
    made.push(workspace);
    const quiver = await createQuiver({ workspace: workspace.workspace, trustProject: true, logger: silent });
    open.push(quiver);
    return { quiver, workspace };
  }

  const named = (name: string): ReadableSpan[] =>
    exporter()
      .getFinishedSpans()
      .filter((span) => span.name === name);

  it('traces the tools/call as a client span under the tool call, with the tool, the request id and the outcome', async () => {
    const { quiver } = await bridged();
    const session = quiver.createSession();
    await session.ready();
    const [result] = await session.execute([
      { id: 'call-echo', name: 'mcp__alpha__echo', args: { text: 'hi' } },
    ]);
    expect(result?.ok).toBe(true);

    const [toolCall] = named('execute_tool mcp__alpha__echo');
    const clientSpans = named('tools/call echo');
    expect(toolCall).toBeDefined();
    expect(clientSpans).toHaveLength(1);
    const [bridgeCall] = clientSpans as [ReadableSpan];
    expect(bridgeCall.kind).toBe(SpanKind.CLIENT);
    expect(bridgeCall.spanContext().traceId).toBe(toolCall?.spanContext().traceId);
    expect(bridgeCall.parentSpanContext?.spanId).toBe(toolCall?.spanContext().spanId);
    expect(bridgeCall.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'quiver.mcp.server': 'alpha',
      'network.transport': 'pipe',
      'quiver.tool.outcome': 'ok',
    });
    expect(bridgeCall.attributes['jsonrpc.request.id']).toMatch(/^quiver-call-\d+$/);
    expect(bridgeCall.attributes['error.type']).toBeUndefined();
    expect(bridgeCall.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(toolCall?.attributes['gen_ai.tool.call.id']).toBe('call-echo');
  }, 90_000);

  it('sends the bridge span as the W3C trace context in the request _meta, so the server can continue the trace', async () => {
    const { quiver } = await bridged();
    const session = quiver.createSession();
    await session.ready();
    const [result] = await session.execute([{ name: 'mcp__trace__request_meta', args: {} }]);
    expect(result?.ok).toBe(true);
    const meta = JSON.parse(result?.ok ? String(result.value) : '{}') as {
      traceparent?: string;
      progressToken?: unknown;
    };
    const [bridgeCall] = named('tools/call request_meta');
    const { traceId, spanId } = bridgeCall?.spanContext() ?? {};
    expect(meta.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(meta.progressToken).toEqual(expect.any(String));
  }, 90_000);

  it('traces each attempt of a retried idempotent call, the lost one as an error', async () => {
    const { quiver } = await bridged();
    const session = quiver.createSession();
    await session.ready();
    const [result] = await session.execute([{ name: 'mcp__alpha__flaky_lookup', args: { key: 'k' } }]);
    expect(result?.ok).toBe(true);

    const [toolCall] = named('execute_tool mcp__alpha__flaky_lookup');
    const attempts = named('tools/call flaky_lookup').sort(
      (first, second) => first.startTime[0] - second.startTime[0] || first.startTime[1] - second.startTime[1],
    );
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts)
      expect(attempt.parentSpanContext?.spanId).toBe(toolCall?.spanContext().spanId);
    const [lost, retried] = attempts as [ReadableSpan, ReadableSpan];
    expect(lost.attributes['error.type']).toBe('connection_lost');
    expect(lost.status.code).toBe(SpanStatusCode.ERROR);
    expect(retried.attributes['quiver.tool.outcome']).toBe('ok');
    expect(retried.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
  }, 90_000);
});
