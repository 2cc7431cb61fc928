import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { write } from './helpers.js';
import { type JsonRpcReply, rawChannel, rawChannelSuite, rssMiB } from './stdio-channel.js';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const request = (id: number | string, method: string, params: unknown) =>
  frame(JSON.stringify({ jsonrpc: '2.0', id, method, params }));

describe('quiver rpc bounds what it reads and what it buffers', () => {
  const suite = rawChannelSuite('quiver-rpc-bounds-');
  afterEach(suite.cleanup);
  const rpc = async (args: string[] = [], plugins = 'tools-code') => {
    const dir = suite.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
    write(path.join(dir, 'personalities/agent.yaml'), `id: agent\nplugins: [${plugins}]\n`);
    const channel = rawChannel(dir, ['rpc', ...args], 'content-length');
    suite.keep(channel);
    await channel.send(request(1, 'initialize', { protocolVersion: '1', client: { name: 'raw' } }));
    await channel.reply((reply) => reply.id === 1);
    await channel.send(request(2, 'session.create', { sessionId: 'bounded' }));
    await channel.reply((reply) => reply.id === 2);
    return channel;
  };

  it('answers a message over --max-message-size with an error to its id and reads the next frame', async () => {
    const channel = await rpc(['--max-message-size', '64KiB']);
    const padded = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'session.explain',
      params: { sessionId: 'bounded', tool: 'x'.repeat(1024 * 1024) },
    });
    await channel.send(
      frame(padded) + request(4, 'session.explain', { sessionId: 'bounded', tool: 'read_file' }),
    );
    const tooLarge = await channel.reply((reply) => reply.id === 3);
    expect(tooLarge.error?.code).toBe(-32600);
    expect(tooLarge.error?.message).toMatch(/too large.*at most 64 KiB.*--max-message-size/);
    expect((await channel.reply((reply) => reply.id === 4)).result).toMatchObject({
      text: expect.any(String),
    });
  });

  it('answers a header block without Content-Length with a framing error and resynchronises', async () => {
    const channel = await rpc();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'session.explain',
      params: { sessionId: 'bounded', tool: 'read_file' },
    });
    await channel.send(`Content-Type: application/json\r\n\r\n${body}`);
    await channel.send(request(6, 'session.explain', { sessionId: 'bounded', tool: 'read_file' }));
    const framing = await channel.reply((reply) => reply.error?.code === -32700);
    expect(framing.id).toBeNull();
    expect(framing.error?.message).toMatch(
      /Framing error: a header block without Content-Length \(it had "Content-Type"\)/,
    );
    // stderr is a separate pipe: its bytes may reach us after the reply on stdout.
    await vi.waitFor(() => expect(channel.stderr()).toContain('Framing error'), { timeout: 10_000 });
    expect((await channel.reply((reply) => reply.id === 6)).result).toBeDefined();
    expect(channel.replies.some((reply) => reply.id === 5)).toBe(false);
  });

  it('answers a body that is not JSON with -32700 and one that is no JSON-RPC message with -32600', async () => {
    const channel = await rpc();
    await channel.send(
      frame('{"jsonrpc":"2.0","id":7,') +
        frame('{"id":8}') +
        request(9, 'session.explain', { sessionId: 'bounded', tool: 'read_file' }),
    );
    const parseError = await channel.reply((reply) => reply.error?.code === -32700);
    expect(parseError).toMatchObject({ id: null, error: { message: expect.stringMatching(/^Parse error/) } });
    expect((await channel.reply((reply) => reply.id === 8)).error?.code).toBe(-32600);
    expect((await channel.reply((reply) => reply.id === 9)).result).toBeDefined();
  });

  it('refuses a body nested thousands of levels deep with -32600 to its id and reads the next frame', async () => {
    const channel = await rpc();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    await channel.send(
      frame(
        `{"jsonrpc":"2.0","id":10,"method":"session.execute","params":{"sessionId":"bounded","calls":[{"name":"read_file","args":{"path":${deep}}}]}}`,
      ) + request(11, 'session.explain', { sessionId: 'bounded', tool: 'read_file' }),
    );
    const refused = await channel.reply((reply) => reply.id === 10);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/more than 1000 levels deep/);
    expect((await channel.reply((reply) => reply.id === 11)).result).toBeDefined();
  });

  it('stops reading while the client does not read its answers: RSS grows by less than 80 MiB over 5 s of requests', async () => {
    const channel = await rpc([], 'tools-code, tools-terminal, tools-kanban, tools-memory');
    const { child } = channel;
    child.stdout.pause();
    const start = rssMiB(child.pid as number);
    let peak = start;
    const until = Date.now() + 5000;
    const sample = setInterval(() => {
      peak = Math.max(peak, rssMiB(child.pid as number));
    }, 100);
    try {
      const batch = Array.from({ length: 200 }, (_, index) =>
        request(`flood-${index}`, 'session.render', { sessionId: 'bounded', format: 'anthropic' }),
      ).join('');
      while (Date.now() < until) {
        if (!child.stdin.write(batch))
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
    expect(peak - start, `RSS went from ${start.toFixed(0)} to ${peak.toFixed(0)} MiB`).toBeLessThan(80);
  }, 30_000);
  it('answers a request past --max-in-flight with an error naming the limit, and still takes the answers to its permission asks', async () => {
    const dir = suite.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
    write(path.join(dir, 'personalities/agent.yaml'), 'id: agent\nplugins: [tools-code]\n');
    const channel = rawChannel(dir, ['rpc', '--max-in-flight', '2', '--no-console'], 'content-length');
    suite.keep(channel);
    await channel.send(
      request(1, 'initialize', {
        protocolVersion: '1',
        client: { name: 'raw' },
        capabilities: { permissions: true },
      }),
    );
    await channel.reply((reply) => reply.id === 1);
    await channel.send(request(2, 'session.create', { sessionId: 'limited' }));
    await channel.reply((reply) => reply.id === 2);
    const execute = (id: number) =>
      request(id, 'session.execute', {
        sessionId: 'limited',
        calls: [{ id: `w${id}`, name: 'write_file', args: { path: `note-${id}.txt`, content: 'x' } }],
      });
    // Two calls wait on the client's answer to a permission ask.
    await channel.send(execute(10) + execute(11));
    const isAsk = (reply: JsonRpcReply) => (reply as { method?: string }).method === 'permission.requested';
    await vi.waitFor(() => expect(channel.replies.filter(isAsk)).toHaveLength(2), { timeout: 30_000 });
    await channel.send(request(12, 'session.list', {}));
    const refused = await channel.reply((reply) => reply.id === 12);
    expect(refused.error?.message).toMatch(/2 of at most 2.*--max-in-flight/);
    for (const ask of channel.replies.filter(isAsk))
      await channel.send(
        frame(JSON.stringify({ jsonrpc: '2.0', id: ask.id, result: { behavior: 'allow', scope: 'once' } })),
      );
    for (const id of [10, 11]) {
      const done = await channel.reply((reply) => reply.id === id);
      expect((done.result as { results: Array<{ ok: boolean }> }).results[0]?.ok, JSON.stringify(done)).toBe(
        true,
      );
    }
    await channel.send(request(13, 'session.list', {}));
    expect((await channel.reply((reply) => reply.id === 13)).error).toBeUndefined();
  }, 60_000);
});
