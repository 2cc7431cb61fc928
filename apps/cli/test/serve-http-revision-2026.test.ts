import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe, tamperedState } from './serve-http-fixtures.js';

const REVISION = '2026-07-28';
const URL_VARIABLE = 'QUIVER_TEST_REVISION_DATABASE_URL';
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env[URL_VARIABLE];
  delete process.env.QUIVER_TEST_PROJECT;
});

/** A client of revision 2026-07-28 (no initialize, no session); `fetch` may route each request. */
async function connectModern(
  url: string,
  fetch?: typeof globalThis.fetch,
  answer?: (message: string) => string,
): Promise<Client> {
  const client = new Client(
    { name: 'modern-client', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: REVISION } },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (answer)
    client.setRequestHandler('elicitation/create', (request) => ({
      action: 'accept',
      content: { decision: answer(request.params.message) },
    }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  cleanups.push(() => client.close());
  return client;
}

async function servedWorkspace(quiverYaml?: string): Promise<{ serve: RunningHttpServe; dir: string }> {
  const workspace = serveWorkspace();
  cleanups.push(workspace.cleanup);
  if (quiverYaml) writeFileSync(path.join(workspace.dir, 'quiver.yaml'), quiverYaml);
  const serve = await startHttpServe(workspace.dir);
  cleanups.push(() => serve.stop());
  return { serve, dir: workspace.dir };
}

/** One serve (SQLite, its own random state key) for the tests that need no special set-up. */
let shared: Promise<{ serve: RunningHttpServe; dir: string }> | undefined;
const sharedCleanups: Array<() => Promise<void> | void> = [];
function sharedServe(): Promise<{ serve: RunningHttpServe; dir: string }> {
  shared ??= (async () => {
    const workspace = serveWorkspace();
    sharedCleanups.push(workspace.cleanup);
    const serve = await startHttpServe(workspace.dir);
    sharedCleanups.push(() => serve.stop());
    return { serve, dir: workspace.dir };
  })();
  return shared;
}
afterAll(async () => {
  for (const cleanup of sharedCleanups.splice(0).reverse()) await cleanup();
});

const rawPost = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe('quiver serve --http on revision 2026-07-28', () => {
  it('answers a client of 2026-07-28 without a session while a 2025-11-25 client keeps its session', async () => {
    const { serve } = await sharedServe();
    const modern = await connectModern(serve.url);
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain('read_file');
    const read = await modern.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    expect(textOf(read)).toContain('The quick brown fox.');

    const legacy = new Client({ name: 'legacy-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(serve.url));
    await legacy.connect(transport);
    cleanups.push(() => legacy.close());
    expect(transport.sessionId).toBeTruthy();
    expect(textOf(await legacy.callTool({ name: 'read_file', arguments: { path: 'README.md' } }))).toContain(
      'The quick brown fox.',
    );
  });

  it('refuses a request whose protocol version header disagrees with its body, and a revision it does not serve', async () => {
    const { serve } = await sharedServe();
    const meta = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const list = (version: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: meta(version) },
    });

    const answered = await rawPost(
      serve.url,
      { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/list' },
      list(REVISION),
    );
    expect(answered.status).toBe(200);
    expect(answered.headers.get('mcp-session-id')).toBeNull();
    expect(await answered.text()).toContain('read_file');

    const mismatched = await rawPost(
      serve.url,
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' },
      list(REVISION),
    );
    expect(mismatched.status).toBe(400);
    expect(((await mismatched.json()) as { error: { code: number } }).error.code).toBe(-32020);

    const unknown = await rawPost(
      serve.url,
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      list('2099-01-01'),
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain(REVISION);
  });
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** A raw 2026-07-28 tools/call: the JSON-RPC answer, whether sent as JSON or as one SSE event. */
async function rawCall(url: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await rawPost(
    url,
    { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': String(params.name) },
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...params, _meta: ENVELOPE } },
  );
  const text = await response.text();
  const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? text) as Record<string, any>;
}

describe('a permission ask of quiver serve --http on revision 2026-07-28', () => {
  it('comes back as an input-required result and runs the command once the client answers it', async () => {
    const { serve, dir } = await sharedServe();
    const questions: string[] = [];
    const client = await connectModern(serve.url, undefined, (message) => {
      questions.push(message);
      return 'once';
    });
    const result = await client.callTool({ name: 'terminal', arguments: { command: 'touch approved' } });
    expect(result.isError).toBeFalsy();
    expect(existsSync(path.join(dir, 'approved'))).toBe(true);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('touch approved');

    const refusing = await connectModern(serve.url, undefined, () => 'deny');
    const refused = await refusing.callTool({ name: 'terminal', arguments: { command: 'touch refused' } });
    expect(textOf(refused)).toContain('[not_permitted]');
    expect(existsSync(path.join(dir, 'refused'))).toBe(false);
  });

  it('refuses a tampered state or one sent with other arguments, and asks again when the answer is missing', async () => {
    const { serve, dir } = await sharedServe();
    const call = { name: 'terminal', arguments: { command: 'touch asked' } };
    const first = await rawCall(serve.url, call);
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.inputRequests.quiver_permission.method).toBe('elicitation/create');
    expect(first.result.inputRequests.quiver_permission.params.message).toContain('touch asked');
    const state = first.result.requestState as string;
    const yes = { quiver_permission: { action: 'accept', content: { decision: 'once' } } };

    const tampered = tamperedState(state);
    const forged = await rawCall(serve.url, { ...call, requestState: tampered, inputResponses: yes });
    expect(forged.error.code).toBe(-32602);
    const other = await rawCall(serve.url, {
      name: 'terminal',
      arguments: { command: 'touch other' },
      requestState: state,
      inputResponses: yes,
    });
    expect(other.error.code).toBe(-32602);
    expect(other.error.message).toContain('belongs to another request (the tool');
    const unanswered = await rawCall(serve.url, { ...call, requestState: state });
    expect(unanswered.result.resultType).toBe('input_required');
    expect(existsSync(path.join(dir, 'asked'))).toBe(false);
    expect(existsSync(path.join(dir, 'other'))).toBe(false);

    const answered = await rawCall(serve.url, { ...call, requestState: state, inputResponses: yes });
    expect(answered.result.isError).toBeFalsy();
    expect(existsSync(path.join(dir, 'asked'))).toBe(true);
  });
});

describe('QUIVER_SERVE_STATE_KEY', () => {
  it('lets another process that shares the key take the answer to a question one process asked', async () => {
    const call = { name: 'terminal', arguments: { command: 'touch shared-key' } };
    const yes = { quiver_permission: { action: 'accept', content: { decision: 'once' } } };
    // Started without the key: it signs with a random key of its own.
    const stranger = await sharedServe();
    process.env.QUIVER_SERVE_STATE_KEY = 'a-test-key-of-at-least-thirty-two-bytes!';
    const asking = await servedWorkspace();
    const answering = await servedWorkspace();
    delete process.env.QUIVER_SERVE_STATE_KEY;

    const first = await rawCall(asking.serve.url, call);
    const state = first.result.requestState as string;
    const refused = await rawCall(stranger.serve.url, { ...call, requestState: state, inputResponses: yes });
    expect(refused.error.code).toBe(-32602);
    expect(existsSync(path.join(stranger.dir, 'shared-key'))).toBe(false);
    const answered = await rawCall(answering.serve.url, {
      ...call,
      requestState: state,
      inputResponses: yes,
    });
    expect(answered.result.isError).toBeFalsy();
    expect(existsSync(path.join(answering.dir, 'shared-key'))).toBe(true);
  });
});

describeWithSystemTools(['postgres', 'initdb'])(
  'two quiver serve --http replicas answering 2026-07-28 requests',
  () => {
    const server = usePostgresServer();

    it('answers requests that alternate between the replicas and records no MCP session for them', async () => {
      const url = await server().freshDatabase('revision');
      process.env[URL_VARIABLE] = url;
      process.env.QUIVER_TEST_PROJECT = 'stateless-revision';
      const yaml = `plugins:\n  - ./workbench\ndefaultPersonality: dev\nstorage:\n  kind: postgres\n  url: \${${URL_VARIABLE}}\n  project: \${QUIVER_TEST_PROJECT}\n`;
      const replicas = [await servedWorkspace(yaml), await servedWorkspace(yaml)];
      const served = [0, 0];
      let next = 0;
      // A balancer that sends each request to the other replica.
      const alternate: typeof globalThis.fetch = (input, init) => {
        const index = next++ % 2;
        served[index] = (served[index] ?? 0) + 1;
        const target = new URL(replicas[index]!.serve.url);
        const original = new URL(input instanceof Request ? input.url : String(input));
        original.host = target.host;
        return fetch(original, init);
      };
      const client = await connectModern(replicas[0]!.serve.url, alternate);
      for (let round = 0; round < 3; round += 1) {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('count_slowly');
        const counted = await client.callTool({ name: 'count_slowly', arguments: { steps: 2 } });
        expect(textOf(counted)).toContain('counted to 2');
      }
      expect(served[0]).toBeGreaterThanOrEqual(3);
      expect(served[1]).toBeGreaterThanOrEqual(3);
      const rows = await server().query(url, 'SELECT id FROM quiver_serve_sessions');
      expect(rows).toEqual([]);
    });
  },
);
