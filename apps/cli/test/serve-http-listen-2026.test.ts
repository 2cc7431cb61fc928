import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWorkspace } from './serve-fixtures.js';
import { type RunningHttpServe, startHttpServe } from './serve-http-fixtures.js';

// Revision 2026-07-28 without sessions: a request's log messages follow the level its `_meta`
// names, and a tool list that changes reaches the client's subscriptions/listen stream.
const REVISION = '2026-07-28';

let serve: RunningHttpServe;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  const workspace = serveWorkspace();
  cleanups.push(workspace.cleanup);
  serve = await startHttpServe(workspace.dir);
  cleanups.push(() => serve.stop());
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Message = Record<string, any>;

const envelope = (logLevel?: string) => ({
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'listen-test', version: '1.0.0' },
  ...(logLevel ? { 'io.modelcontextprotocol/logLevel': logLevel } : {}),
});

/**
 * POSTs one 2026-07-28 request and reads the messages of its answer (JSON or SSE) until `done`
 * says so or the stream ends; `aborted` ends a stream that stays open (subscriptions/listen).
 */
async function exchange(
  method: string,
  params: Record<string, unknown>,
  done: (messages: Message[]) => boolean,
  signal?: AbortSignal,
): Promise<Message[]> {
  const response = await fetch(serve.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    ...(signal ? { signal } : {}),
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return [(await response.json()) as Message];
  const messages: Message[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    while (!done(messages)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffered += value;
      const events = buffered.split('\n\n');
      buffered = events.pop() ?? '';
      for (const event of events)
        for (const line of event.split('\n'))
          if (line.startsWith('data:') && line.slice(5).trim()) messages.push(JSON.parse(line.slice(5)));
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  } finally {
    await reader.cancel().catch(() => {});
  }
  return messages;
}

const answered = (messages: Message[]) =>
  messages.some((message) => 'result' in message || 'error' in message);

describe('quiver serve --http, revision 2026-07-28 notifications', () => {
  it("sends a tool's log messages from the level the request names, and none when it names none", async () => {
    const logged = await exchange(
      'tools/call',
      { name: 'log_steps', arguments: {}, _meta: envelope('info') },
      answered,
    );
    const messages = logged.filter((message) => message.method === 'notifications/message');
    expect(messages.map((message) => [message.params.level, message.params.data])).toEqual([
      ['info', 'step one done'],
      ['warning', 'step two was slow'],
    ]);
    expect(logged.at(-1)?.result?.content?.[0]?.text).toBe('logged');

    const quiet = await exchange(
      'tools/call',
      { name: 'log_steps', arguments: {}, _meta: envelope() },
      answered,
    );
    expect(quiet.some((message) => message.method === 'notifications/message')).toBe(false);
    expect(quiet.at(-1)?.result?.content?.[0]?.text).toBe('logged');
  });

  it('tells a subscriptions/listen stream that asked for tool changes when a plugin adds a tool, and not one that asked for prompts only', async () => {
    const tools = new AbortController();
    const prompts = new AbortController();
    const sawChange = (messages: Message[]) =>
      messages.some((message) => message.method === 'notifications/tools/list_changed');
    const listening = exchange(
      'subscriptions/listen',
      { _meta: envelope(), notifications: { toolsListChanged: true } },
      sawChange,
      tools.signal,
    );
    const narrow = exchange(
      'subscriptions/listen',
      { _meta: envelope(), notifications: { promptsListChanged: true } },
      sawChange,
      prompts.signal,
    );
    // Both streams are open (acknowledged) before the tool list changes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const added = await exchange(
      'tools/call',
      { name: 'add_tool', arguments: { name: 'added_by_listen_test' }, _meta: envelope() },
      answered,
    );
    expect(added.at(-1)?.result?.content?.[0]?.text).toBe('added added_by_listen_test');
    const timer = setTimeout(() => tools.abort(), 5_000);
    const frames = await listening;
    clearTimeout(timer);
    expect(frames[0]?.method).toBe('notifications/subscriptions/acknowledged');
    const change = frames.find((message) => message.method === 'notifications/tools/list_changed');
    expect(change?.params?._meta?.['io.modelcontextprotocol/subscriptionId']).toBeTruthy();

    setTimeout(() => prompts.abort(), 300);
    const narrowFrames = await narrow;
    expect(narrowFrames[0]?.method).toBe('notifications/subscriptions/acknowledged');
    expect(sawChange(narrowFrames)).toBe(false);

    // The added tool is really there for the next request.
    const listed = await exchange('tools/list', { _meta: envelope() }, answered);
    expect(listed.at(-1)?.result?.tools?.map((tool: { name: string }) => tool.name)).toContain(
      'added_by_listen_test',
    );
  });
});
