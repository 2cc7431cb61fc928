import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { REPO, tempDir, write } from './helpers.js';
import { relayServerYaml, textOf, untilListed } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe, tamperedState } from './serve-http-fixtures.js';

const REVISION = '2026-07-28';

/** A workspace bridging the relay fixture, whose ask_name asks its client for a name mid-call. */
function relayWorkspace(): { dir: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir('quiver-serve-relayed-input-');
  write(
    path.join(dir, 'quiver.yaml'),
    ['defaultPersonality: relay', 'mcpServers:', ...relayServerYaml(['elicitation', 'sampling']), ''].join(
      '\n',
    ),
  );
  write(
    path.join(dir, 'personalities/relay.yaml'),
    [
      'id: relay',
      'plugins: [mcp-bridge]',
      'mcpServers: { relay: true }',
      'permissions:',
      '  allow: [mcp__relay__ask_name, mcp__relay__summarize]',
      '',
    ].join('\n'),
  );
  return { dir, cleanup };
}

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

/** A raw 2026-07-28 tools/call with the given client capabilities: the JSON-RPC answer and HTTP status. */
async function rawCall(
  url: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, any> }> {
  const response = await rawPost(
    url,
    { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': String(params.name) },
    {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    },
  );
  const text = await response.text();
  const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return { status: response.status, body: JSON.parse(data ?? text) as Record<string, any> };
}

describe("a bridged server's question during a call of quiver serve --http", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let serve: RunningHttpServe;
  beforeAll(async () => {
    const workspace = relayWorkspace();
    cleanups.push(workspace.cleanup);
    serve = await startHttpServe(workspace.dir);
    cleanups.push(() => serve.stop());
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A client that answers every question with the name Ada, remembering what it was asked. */
  async function answeringClient(revision?: string): Promise<{ client: Client; asked: string[] }> {
    const asked: string[] = [];
    const client = new Client(
      { name: 'answering-client', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(revision ? { versionNegotiation: { mode: { pin: revision } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    cleanups.push(() => client.close());
    await untilListed(client, 'mcp__relay__ask_name', { stderr: serve.stderr });
    return { client, asked };
  }

  it('is put to a 2025-11-25 client as an elicitation request, labelled as the server’s, and the tool gets the answer', async () => {
    onTestFailed(() => console.error(serve.stderr()));
    const { client, asked } = await answeringClient();
    const result = await client.callTool({ name: 'mcp__relay__ask_name', arguments: {} });
    expect(textOf(result)).toBe('hello Ada');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('relay');
    expect(asked[0]).toContain('What is your name?');
  });

  it('comes back to a 2026-07-28 client as an input-required result, and the call runs again with its answer', async () => {
    onTestFailed(() => console.error(serve.stderr()));
    const { client, asked } = await answeringClient(REVISION);
    const result = await client.callTool({ name: 'mcp__relay__ask_name', arguments: {} });
    expect(textOf(result)).toBe('hello Ada');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('relay');

    // The same round trip by hand: the question as the result carries it, the answer, the state.
    const call = { name: 'mcp__relay__ask_name', arguments: {} };
    const elicitation = { elicitation: { form: {} } };
    const first = await rawCall(serve.url, call, elicitation);
    expect(first.body.result.resultType).toBe('input_required');
    const [key, request] = Object.entries(first.body.result.inputRequests as Record<string, any>)[0] ?? [];
    expect(request.method).toBe('elicitation/create');
    expect(request.params.message).toContain('relay');
    const state = first.body.result.requestState as string;
    const answer = { [String(key)]: { action: 'accept', content: { name: 'Grace' } } };
    const answered = await rawCall(
      serve.url,
      { ...call, requestState: state, inputResponses: answer },
      elicitation,
    );
    expect(textOf(answered.body.result)).toBe('hello Grace');

    const tampered = tamperedState(state);
    const forged = await rawCall(
      serve.url,
      { ...call, requestState: tampered, inputResponses: answer },
      elicitation,
    );
    expect(forged.body.error.code).toBe(-32602);
    const unanswered = await rawCall(serve.url, { ...call, requestState: state }, elicitation);
    expect(unanswered.body.result.resultType).toBe('input_required');
  });

  it('is refused for a 2026-07-28 client that did not declare elicitation, saying so to the tool', async () => {
    onTestFailed(() => console.error(serve.stderr()));
    await answeringClient(REVISION);
    const refused = await rawCall(serve.url, { name: 'mcp__relay__ask_name', arguments: {} }, {});
    expect(refused.body.result.resultType).not.toBe('input_required');
    expect(refused.body.result.isError).toBe(true);
    expect(textOf(refused.body.result)).toContain('does not support form elicitation');
  });
});

const FIXTURE_PLUGIN = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-plugin.js');

describe("a plugin tool's own asks of its caller through quiver serve --http", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let serve: RunningHttpServe;
  beforeAll(async () => {
    const { dir, cleanup } = tempDir('quiver-serve-tool-asks-');
    cleanups.push(cleanup);
    write(
      path.join(dir, 'quiver.yaml'),
      `plugins:\n  - ${JSON.stringify(FIXTURE_PLUGIN)}\ndefaultPersonality: asking\n`,
    );
    write(
      path.join(dir, 'personalities/asking.yaml'),
      'id: asking\nplugins: [conformance-fixture]\npermissions:\n  allow: [test_*]\n',
    );
    serve = await startHttpServe(dir);
    cleanups.push(() => serve.stop());
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("lists a 2025-11-25 client's roots through a roots/list request to it", async () => {
    onTestFailed(() => console.error(serve.stderr()));
    const client = new Client({ name: 'rooted-client', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler('roots/list', () => ({
      roots: [{ uri: 'file:///srv/project', name: 'project' }],
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'test_input_required_result_list_roots', arguments: {} });
    expect(textOf(result)).toBe('Roots: file:///srv/project');
  });

  it('asks a 2026-07-28 client several things in one round, under the keys the tool chose', async () => {
    const call = { name: 'test_input_required_result_multiple_inputs', arguments: {} };
    const all = { elicitation: { form: {} }, sampling: {}, roots: {} };
    const first = await rawCall(serve.url, call, all);
    expect(Object.keys(first.body.result.inputRequests).sort()).toEqual([
      'client_roots',
      'greeting',
      'user_name',
    ]);
    const answers = {
      user_name: { action: 'accept', content: { name: 'Ada' } },
      greeting: {
        role: 'assistant',
        content: { type: 'text', text: 'Hi!' },
        model: 'm',
        stopReason: 'endTurn',
      },
      client_roots: { roots: [{ uri: 'file:///srv/a' }] },
    };
    const done = await rawCall(
      serve.url,
      { ...call, requestState: first.body.result.requestState, inputResponses: answers },
      all,
    );
    expect(textOf(done.body.result)).toBe('Hi! {"name":"Ada"}; roots: file:///srv/a');
  });

  it('answers a tool that needs sampling, for a 2026-07-28 client without it, with -32021 naming sampling (HTTP 400)', async () => {
    const refused = await rawCall(
      serve.url,
      { name: 'test_missing_capability', arguments: {} },
      { elicitation: {} },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(-32021);
    expect(refused.body.error.data.requiredCapabilities).toEqual({ sampling: {} });
    expect(refused.body.error.message).toContain('does not support sampling');
  });
});
