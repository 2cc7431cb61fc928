import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { REPO, tempDir, write } from './helpers.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

// A bridged server's prompt that asks its client first (the conformance fixture server's
// test_input_required_result_prompt): serve's caller is asked, whichever revision it speaks.
const REVISION = '2026-07-28';
const FIXTURE_SERVER = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-server.js');
const PROMPT = 'test_input_required_result_prompt';

let serve: RunningHttpServe;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  const { dir, cleanup } = tempDir('quiver-serve-prompt-input-');
  cleanups.push(cleanup);
  write(
    path.join(dir, 'quiver.yaml'),
    [
      'defaultPersonality: prompts',
      'mcpServers:',
      '  fixture:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FIXTURE_SERVER)}]`,
      '    allow: [elicitation]',
      '',
    ].join('\n'),
  );
  write(
    path.join(dir, 'personalities/prompts.yaml'),
    'id: prompts\nplugins: [mcp-bridge]\nmcpServers:\n  fixture: { promptNames: own }\n',
  );
  serve = await startHttpServe(dir);
  cleanups.push(() => serve.stop());
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A client that answers every question with `context`, remembering what it was asked. */
async function answeringClient(
  context: string,
  revision?: string,
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'prompt-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(revision ? { versionNegotiation: { mode: { pin: revision } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { context } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
  cleanups.push(() => client.close());
  // serve connects the bridged server on its own time after the session asks for it.
  const deadline = Date.now() + 30_000;
  while (!(await client.listPrompts()).prompts.some((prompt) => prompt.name === PROMPT)) {
    if (Date.now() > deadline) throw new Error(`${PROMPT} was never listed:\n${serve.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { client, asked };
}

const textOf = (result: { messages: Array<{ content: { type: string; text?: string } }> }) =>
  result.messages.map((message) => message.content.text ?? '').join('\n');

/** A raw 2026-07-28 prompts/get: the JSON-RPC answer. */
async function rawGetPrompt(params: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await fetch(serve.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': 'prompts/get',
      'mcp-name': String(params.name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'prompts/get',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  const text = await response.text();
  return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text));
}

describe('quiver serve --http relaying a prompt whose server asks its client', () => {
  it('asks a 2025-11-25 client within prompts/get, naming the server, and the prompt uses its answer', async () => {
    onTestFailed(() => console.error(serve.stderr()));
    const { client, asked } = await answeringClient('the release notes');
    const result = await client.getPrompt({ name: PROMPT });
    expect(textOf(result)).toBe('Use this context: the release notes');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('fixture');
    expect(asked[0]).toContain('What context should the prompt use?');
  });

  it('answers a 2026-07-28 client with input-required, and prompts/get sent again with the answer gives the prompt', async () => {
    onTestFailed(() => console.error(serve.stderr()));
    const { client, asked } = await answeringClient('a bug report', REVISION);
    expect(textOf(await client.getPrompt({ name: PROMPT }))).toBe('Use this context: a bug report');
    expect(asked).toHaveLength(1);

    const first = await rawGetPrompt({ name: PROMPT });
    expect(first.result.resultType).toBe('input_required');
    const [key, request] = Object.entries(first.result.inputRequests as Record<string, any>)[0] ?? [];
    expect(request.method).toBe('elicitation/create');
    expect(request.params.requestedSchema.required).toEqual(['context']);
    const inputResponses = { [String(key)]: { action: 'accept', content: { context: 'by hand' } } };
    const answered = await rawGetPrompt({
      name: PROMPT,
      requestState: first.result.requestState,
      inputResponses,
    });
    expect(textOf(answered.result)).toBe('Use this context: by hand');

    // The state belongs to this prompt: sent with another, it is refused with the reason.
    const misused = await rawGetPrompt({
      name: 'test_simple_prompt',
      requestState: first.result.requestState,
      inputResponses,
    });
    expect(misused.error?.code).toBe(-32602);
    expect(misused.error?.message).toMatch(
      /requestState belongs to another request \(prompt .*same prompt and arguments/,
    );
  });
});
