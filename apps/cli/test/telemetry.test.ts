import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-otel-');

interface OtlpSpan {
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number };
}

/** An OTLP/HTTP JSON receiver: what `quiver` exports lands here. */
function collector(): Promise<{ server: Server; url: string; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const exported = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const resource of exported.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans }),
    ),
  );
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('OpenTelemetry traces', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
    dirs.cleanup();
  });

  it('exports one span per quiver call with the GenAI tool attributes and the permission decision', async () => {
    const received = await collector();
    servers.push(received.server);
    const workspace = dirs.make();
    write(path.join(workspace, 'notes.txt'), 'traced\n');
    const run = await quiver(['call', 'read_file', '--args', '{"path":"notes.txt"}'], {
      cwd: workspace,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: received.url, OTEL_SERVICE_NAME: 'quiver-test' },
    });
    expect(run.code, run.stderr).toBe(0);
    const spans = received.spans.filter((span) => span.name === 'execute_tool read_file');
    expect(spans).toHaveLength(1);
    const [span] = spans as [OtlpSpan];
    expect(attribute(span, 'gen_ai.operation.name')).toBe('execute_tool');
    expect(attribute(span, 'gen_ai.tool.name')).toBe('read_file');
    expect(attribute(span, 'gen_ai.tool.call.id')).toEqual(expect.any(String));
    expect(attribute(span, 'quiver.permission.decision')).toBe('allow');
    expect(attribute(span, 'quiver.tool.outcome')).toBe('ok');
  });

  it('marks a refused call as an error span, and exports nothing without an endpoint', async () => {
    const received = await collector();
    servers.push(received.server);
    const workspace = dirs.make();
    const refused = await quiver(['call', 'terminal', '--args', '{"command":"touch x"}'], {
      cwd: workspace,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: received.url },
    });
    expect(refused.code).not.toBe(0);
    const [span] = received.spans.filter((entry) => entry.name === 'execute_tool terminal');
    expect(span && attribute(span, 'quiver.permission.decision')).toBe('deny');
    expect(span && attribute(span, 'error.type')).toBe('not_permitted');
    expect(span?.status?.code).toBe(2);

    const before = received.spans.length;
    const quiet = await quiver(['call', 'list_dir', '--args', '{"path":"."}'], { cwd: workspace });
    expect(quiet.code).toBe(0);
    expect(received.spans.length).toBe(before);
  });
});
