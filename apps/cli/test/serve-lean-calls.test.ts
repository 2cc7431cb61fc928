import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { everythingServerYaml, write } from './helpers.js';
import { type JsonRpcReply, type RawChannel, rawChannelSuite } from './stdio-channel.js';

/** A bridged server whose `exit_now` ends its process mid-call; `answer` answers while it runs. */
const EXITING_SERVER = `import { createInterface } from 'node:readline';
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const tools = [
  { name: 'exit_now', description: 'Exits the server.', inputSchema: { type: 'object', properties: {} } },
  { name: 'answer', description: 'Answers.', inputSchema: { type: 'object', properties: {} } },
];
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  if (request.method === 'initialize')
    return send({ id: request.id, result: { protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'exiting', version: '1.0.0' } } });
  if (request.method === 'tools/list') return send({ id: request.id, result: { tools } });
  if (request.method === 'tools/call' && request.params.name === 'exit_now') process.exit(3);
  if (request.method === 'tools/call') return send({ id: request.id, result: { content: [{ type: 'text', text: 'answered' }] } });
  send({ id: request.id, error: { code: -32601, message: 'Method not found' } });
});
`;

type Request = Record<string, unknown> & { params?: unknown };

const call = (id: string | number, name: string, args?: unknown): Request => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: args === undefined ? { name } : { name, arguments: args },
});

/**
 * The requests both serves get, in order. The second serve gets each kept off the lean path
 * (offLean).
 */
const SEQUENCE: Request[] = [
  call(2, 'mcp__everything__echo', { message: 'hello' }),
  call('three', 'mcp__everything__echo', { message: 'a string id' }),
  call(4, 'mcp__everything__get-structured-content', { location: 'New York' }),
  call(5, 'mcp__everything__get-tiny-image', {}),
  call(6, 'mcp__everything__get-annotated-message', { messageType: 'error', includeImage: false }),
  // Unknown tool: -32602 naming why.
  call(7, 'mcp__everything__no_such_tool', {}),
  // Arguments the tool's schema refuses: an input_invalid result.
  call(8, 'mcp__everything__echo', { message: 5 }),
  call(9, 'mcp__everything__echo'),
  // Not allowed, and this client cannot be asked: denied naming the rule.
  call(10, 'mcp__everything__get-sum', { a: 1, b: 2 }),
  // A bridged server that exits during the call, and the next call to it.
  call(11, 'mcp__exiting__exit_now', {}),
  call(12, 'mcp__exiting__answer', {}),
  // Malformed tools/call requests (the SDK's schema refuses them; the lean path must not take them).
  { jsonrpc: '2.0', id: 13, method: 'tools/call', params: { arguments: {} } },
  call(14, 'mcp__everything__echo', ['hello']),
  call(15, 'mcp__everything__echo', 'hello'),
  { ...call(16, 'mcp__everything__echo', { message: 'x' }), extra: true },
  { jsonrpc: '2.0', id: 17, method: 'tools/call' },
  { jsonrpc: '2.0', id: 18, method: 'tools/call', params: { name: 7 } },
  call(19, 'mcp__everything__echo', { message: 'after the malformed ones' }),
];

/**
 * The same request kept off the lean path: a `_meta` key of no meaning added to its params when
 * they are an object (the lean path takes no `_meta` but a progress token), which changes nothing
 * else: the SDK's route answers it as before.
 */
function offLean(request: Request): Request {
  const { params } = request;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return request;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta)))
    return request;
  return { ...request, params: { ...params, _meta: { ...meta, 'dev.quiver.test/route': 'sdk' } } };
}

/** The request asking for progress under `token`, as a client that shows progress sends every call. */
function withToken(request: Request, token: unknown): Request {
  return { ...request, params: { ...(request.params as object), _meta: { progressToken: token } } };
}

describe('quiver serve answers a plain tools/call on its lean path as the SDK route does', () => {
  const suite = rawChannelSuite('quiver-serve-lean-');
  afterAll(suite.cleanup);

  const serve = async (): Promise<RawChannel> => {
    const dir = suite.make();
    write(path.join(dir, 'exiting-server.mjs'), EXITING_SERVER);
    write(
      path.join(dir, 'quiver.yaml'),
      [
        'defaultPersonality: dev',
        'mcpServers:',
        everythingServerYaml(),
        `  exiting: ${JSON.stringify({ command: process.execPath, args: [path.join(dir, 'exiting-server.mjs')] })}`,
        '',
      ].join('\n'),
    );
    write(
      path.join(dir, 'personalities/dev.yaml'),
      [
        'id: dev',
        'plugins: [mcp-bridge]',
        'mcpServers:',
        '  everything: { includeTools: [echo, get-structured-content, get-tiny-image, get-annotated-message, get-sum, trigger-long-running-operation] }',
        '  exiting: true',
        'permissions:',
        '  allow: [mcp__everything__echo, mcp__everything__get-structured-content, mcp__everything__get-tiny-image, mcp__everything__get-annotated-message, mcp__everything__trigger-long-running-operation, mcp__exiting__exit_now, mcp__exiting__answer]',
        '',
      ].join('\n'),
    );
    const channel = await suite.serve(dir);
    // Both bridged servers listed before the first call, so both serves start from the same state.
    for (let attempt = 0; ; attempt++) {
      const id = `list-${attempt}`;
      await channel.send(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
      const names = (
        (await channel.reply((reply) => reply.id === id)).result as { tools: { name: string }[] }
      ).tools.map((tool) => tool.name);
      if (names.includes('mcp__everything__get-sum') && names.includes('mcp__exiting__answer')) break;
      if (attempt > 300) throw new Error(`the bridged tools were never listed: ${names.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return channel;
  };

  const answer = async (channel: RawChannel, request: Request): Promise<JsonRpcReply> => {
    await channel.send(`${JSON.stringify(request)}\n`);
    return channel.reply((reply) => reply.id === request.id);
  };

  it('gives the same JSON, keys in the same order, for results, tool errors and refused requests', async () => {
    const [lean, sdk] = await Promise.all([serve(), serve()]);
    const seen: string[] = [];
    for (const request of SEQUENCE) {
      const [leanReply, sdkReply] = await Promise.all([answer(lean, request), answer(sdk, offLean(request))]);
      // Compared as text: JSON.parse keeps the order the serve wrote its keys in.
      expect(JSON.stringify(leanReply), `request ${JSON.stringify(request)}`).toBe(JSON.stringify(sdkReply));
      seen.push(leanReply.error ? `error ${leanReply.error.code}` : 'result');
    }
    const result = (id: string | number) =>
      lean.replies.find((reply) => reply.id === id)?.result as {
        content: { type: string; text?: string }[];
        structuredContent?: unknown;
        isError?: boolean;
      };
    // What the sequence covered, so an equal pair of unexpected answers cannot pass unnoticed.
    expect(result(2).content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
    expect(result('three').isError).toBeUndefined();
    expect(result(4).structuredContent).toBeDefined();
    expect(result(5).content.map((block) => block.type)).toContain('image');
    expect(result(8)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/Invalid arguments/) }],
    });
    expect(result(10)).toMatchObject({ isError: true });
    expect(result(10).content[0]?.text).toMatch(/mcp__everything__get-sum/);
    expect(result(11).content[0]?.text).toMatch(/"exiting" exited while the call was running/);
    expect(result(12).content[0]?.text).toMatch(/"exiting" is down/);
    expect(result(19).content).toEqual([{ type: 'text', text: 'Echo: after the malformed ones' }]);
    expect(seen.slice(5, 6)).toEqual(['error -32602']);
    // The malformed ones: the SDK's -32602 naming the field, -32600 for the unknown top-level key.
    expect(seen.slice(11)).toEqual([
      'error -32602',
      'error -32602',
      'error -32602',
      'error -32600',
      'error -32602',
      'error -32602',
      'result',
    ]);

    // A call the client cancels gets no answer on either path, and the next call is answered.
    const started = Date.now();
    for (const [channel, form] of [
      [lean, (request: Request) => request],
      [sdk, offLean],
    ] as const) {
      await channel.send(
        `${JSON.stringify(form(call(20, 'mcp__everything__trigger-long-running-operation', { duration: 1.5, steps: 3 })))}\n`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 20, reason: 'stop' },
    };
    await Promise.all([lean.send(`${JSON.stringify(cancel)}\n`), sdk.send(`${JSON.stringify(cancel)}\n`)]);
    const [leanNext, sdkNext] = await Promise.all([
      answer(lean, call(21, 'mcp__everything__echo', { message: 'next' })),
      answer(sdk, offLean(call(21, 'mcp__everything__echo', { message: 'next' }))),
    ]);
    expect(JSON.stringify(leanNext)).toBe(JSON.stringify(sdkNext));
    // Past the operation's 1.5 s: a call that was not stopped would have been answered by now.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 2_500 - Date.now())));
    expect(lean.replies.filter((reply) => reply.id === 20)).toEqual([]);
    expect(sdk.replies.filter((reply) => reply.id === 20)).toEqual([]);
    expect(lean.child.exitCode).toBeNull();
  }, 120_000);
  it('takes calls that ask for progress, with the same answers and progress notifications as the SDK route', async () => {
    const [lean, sdk] = await Promise.all([serve(), serve()]);
    const requests = [
      withToken(call(30, 'mcp__everything__echo', { message: 'a string token' }), 'token-30'),
      withToken(call(31, 'mcp__everything__echo', { message: 'a number token' }), 31),
      withToken(
        call(32, 'mcp__everything__trigger-long-running-operation', { duration: 1, steps: 2 }),
        'token-32',
      ),
      withToken(call(33, 'mcp__everything__get-sum', { a: 1, b: 2 }), 'token-33'),
      // Tokens the SDK refuses (-32600, an invalid request), and a `_meta` with more than a token.
      withToken(call(34, 'mcp__everything__echo', { message: 'x' }), 1.5),
      withToken(call(35, 'mcp__everything__echo', { message: 'x' }), null),
      withToken(call(36, 'mcp__everything__echo', { message: 'x' }), { nested: true }),
      {
        ...call(37, 'mcp__everything__echo', { message: 'more meta' }),
        params: {
          name: 'mcp__everything__echo',
          arguments: { message: 'more meta' },
          _meta: { progressToken: 't', other: 1 },
        },
      },
    ];
    const seen: string[] = [];
    for (const request of requests) {
      const [leanReply, sdkReply] = await Promise.all([answer(lean, request), answer(sdk, offLean(request))]);
      expect(JSON.stringify(leanReply), `request ${JSON.stringify(request)}`).toBe(JSON.stringify(sdkReply));
      seen.push(leanReply.error ? `error ${leanReply.error.code}` : 'result');
    }
    expect(seen).toEqual([
      'result',
      'result',
      'result',
      'result',
      'error -32600',
      'error -32600',
      'error -32600',
      'result',
    ]);
    const text = (id: number) =>
      (lean.replies.find((reply) => reply.id === id)?.result as { content: { text?: string }[] }).content[0]
        ?.text;
    expect(text(30)).toBe('Echo: a string token');
    expect(text(31)).toBe('Echo: a number token');
    expect(text(33)).toMatch(/mcp__everything__get-sum/);
    // The long operation's two steps reached each client under its token, the same on both paths.
    const progress = (channel: RawChannel) =>
      (channel.replies as unknown as { method?: string; params?: { progressToken?: unknown } }[])
        .filter(
          (reply) => reply.method === 'notifications/progress' && reply.params?.progressToken === 'token-32',
        )
        .map((reply) => reply.params);
    for (let wait = 0; wait < 40 && (progress(lean).length < 2 || progress(sdk).length < 2); wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress(lean)).toEqual(progress(sdk));
    expect(progress(lean).map((params) => (params as { progress?: number }).progress)).toEqual([1, 2]);
  }, 120_000);
});
