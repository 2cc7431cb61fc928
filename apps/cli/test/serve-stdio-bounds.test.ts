import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { write } from './helpers.js';
import { type JsonRpcReply, paddedRequest, rawChannel, rawChannelSuite, rssMiB } from './stdio-channel.js';

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const listTools = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });

describe('quiver serve over stdio bounds what it reads and what it buffers', () => {
  const suite = rawChannelSuite('quiver-serve-bounds-');
  afterEach(suite.cleanup);
  const serve = async (args: string[] = [], plugins = 'tools-code') => {
    const dir = suite.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(dir, 'personalities/dev.yaml'), `id: dev\nplugins: [${plugins}]\n`);
    const channel = rawChannel(dir, ['serve', ...args], 'lines');
    suite.keep(channel);
    await channel.send(`${INITIALIZE}\n`);
    await channel.reply((reply) => reply.id === 1);
    await channel.send(`${INITIALIZED}\n`);
    return channel;
  };

  it('answers a line over --max-message-size with an error to its id and goes on with the next line', async () => {
    const channel = await serve(['--max-message-size', '1MiB']);
    await channel.send(`${paddedRequest(2, 'tools/list', 3 * 1024 * 1024)}\n${listTools(3)}\n`);
    const tooLarge = await channel.reply((reply) => reply.id === 2);
    expect(tooLarge.error?.code).toBe(-32600);
    expect(tooLarge.error?.message).toMatch(/too large.*at most 1 MiB.*--max-message-size/);
    const next = await channel.reply((reply) => reply.id === 3);
    expect((next.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect(channel.child.exitCode).toBeNull();
  });

  it('reads a line over 10 MiB under the default limit, and skips one over it without exiting', async () => {
    const channel = await serve();
    await channel.send(`${paddedRequest(2, 'tools/list', 11 * 1024 * 1024)}\n`);
    expect(
      ((await channel.reply((reply) => reply.id === 2)).result as { tools: unknown[] }).tools.length,
    ).toBeGreaterThan(0);
    await channel.send(`${paddedRequest(3, 'tools/list', 17 * 1024 * 1024)}\n${listTools(4)}\n`);
    expect((await channel.reply((reply) => reply.id === 3)).error?.message).toMatch(/at most 16 MiB/);
    expect((await channel.reply((reply) => reply.id === 4)).result).toBeDefined();
  });

  it('answers a line that is not JSON with -32700 and one that is no JSON-RPC message with -32600', async () => {
    const channel = await serve();
    await channel.send(
      `{"jsonrpc":"2.0","id":5,"method":\n[1,2]\n{"jsonrpc":"2.0","id":6}\n${listTools(7)}\n`,
    );
    const parseError = await channel.reply((reply) => reply.error?.code === -32700);
    expect(parseError.id).toBeNull();
    expect(parseError.error?.message).toMatch(/^Parse error/);
    expect((await channel.reply((reply) => reply.id === 6)).error?.code).toBe(-32600);
    expect(channel.replies.filter((reply) => reply.error?.code === -32600)).toHaveLength(2);
    expect((await channel.reply((reply) => reply.id === 7)).result).toBeDefined();
  });

  it('refuses a line nested thousands of levels deep with -32600 to its id, before any tool sees it', async () => {
    const channel = await serve();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    await channel.send(
      `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":{"path":${deep}}}}\n${listTools(9)}\n`,
    );
    const refused = await channel.reply((reply) => reply.id === 8);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/more than 1000 levels deep/);
    expect((await channel.reply((reply) => reply.id === 9)).result).toBeDefined();
  });

  it('stops reading while the client does not read its answers: RSS grows by less than 80 MiB over 6 s of requests', async () => {
    // Four plugins: each tools/list answer is ~20 KB, so unread answers would add ~150 MiB a second.
    const channel = await serve([], 'tools-code, tools-terminal, tools-kanban, tools-memory');
    const { child } = channel;
    child.stdout.pause();
    const start = rssMiB(child.pid as number);
    let peak = start;
    let sent = 0;
    const until = Date.now() + 6000;
    const sample = setInterval(() => {
      peak = Math.max(peak, rssMiB(child.pid as number));
    }, 100);
    try {
      const batch = Array.from({ length: 200 }, (_, index) => listTools(`flood-${index}`)).join('\n');
      while (Date.now() < until) {
        // A client that writes as fast as the pipe takes it: it waits at most until the deadline.
        const written = child.stdin.write(`${batch}\n`);
        sent += 200;
        if (!written)
          await Promise.race([
            new Promise((resolve) => child.stdin.once('drain', resolve)),
            new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now()))),
          ]);
      }
    } finally {
      clearInterval(sample);
    }
    peak = Math.max(peak, rssMiB(child.pid as number));
    expect(child.exitCode).toBeNull();
    expect(
      peak - start,
      `RSS went from ${start.toFixed(0)} to ${peak.toFixed(0)} MiB (${sent} requests sent)`,
    ).toBeLessThan(80);
  }, 30_000);
  it('answers a request past --max-in-flight with an error naming the limit, and still takes the answers to its own questions', async () => {
    const dir = suite.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(dir, 'personalities/dev.yaml'), 'id: dev\nplugins: [tools-code]\n');
    const channel = rawChannel(dir, ['serve', '--max-in-flight', '2'], 'lines');
    suite.keep(channel);
    const asking = JSON.parse(INITIALIZE) as { params: { capabilities: object } };
    asking.params.capabilities = { elicitation: {} };
    await channel.send(`${JSON.stringify(asking)}\n`);
    await channel.reply((reply) => reply.id === 1);
    await channel.send(`${INITIALIZED}\n`);
    const writeCall = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'write_file', arguments: { path: `note-${id}.txt`, content: 'x' } },
      });
    // Two calls wait on a person: the server asks the client (elicitation/create) for each.
    await channel.send(`${writeCall(10)}\n${writeCall(11)}\n`);
    const isAsk = (reply: JsonRpcReply) => (reply as { method?: string }).method === 'elicitation/create';
    await channel.reply(isAsk, 30_000);
    await until(() => channel.replies.filter(isAsk).length === 2);
    await channel.send(`${JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'ping' })}\n`);
    const refused = await channel.reply((reply) => reply.id === 12);
    expect(refused.error?.message).toMatch(/2 of at most 2.*--max-in-flight/);
    // The answers to the server's own questions pass the limit, and the calls finish.
    for (const ask of channel.replies.filter(isAsk))
      await channel.send(
        `${JSON.stringify({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { decision: 'once' } } })}\n`,
      );
    for (const id of [10, 11]) {
      const done = await channel.reply((reply) => reply.id === id);
      expect((done.result as { isError?: boolean }).isError, JSON.stringify(done)).toBeFalsy();
    }
    await channel.send(`${JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'ping' })}\n`);
    expect((await channel.reply((reply) => reply.id === 13)).result).toEqual({});
  }, 60_000);
});
