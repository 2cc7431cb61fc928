import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, write } from './helpers.js';
import { type RunningHttpServe, rawInitialize, startHttpServe } from './serve-http-fixtures.js';

interface DrippingClient {
  socket: Socket;
  /** What the server sent, as text. */
  received: () => string;
  closed: Promise<void>;
}

/** A client that sends a POST's headers, then its body one byte every 200 ms (or only part of its headers). */
function drip(url: string, options: { sessionId?: string; headersOnly?: boolean } = {}): DrippingClient {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  socket.on('error', () => undefined);
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: ${hostname}:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...(options.sessionId ? [`Mcp-Session-Id: ${options.sessionId}`] : []),
    'Content-Length: 100000',
  ];
  socket.write(options.headersOnly ? `${head.join('\r\n')}\r\n` : `${head.join('\r\n')}\r\n\r\n{`);
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(options.headersOnly ? 'X' : ' ');
  }, 200);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve();
    }),
  );
  return { socket, received: () => received, closed };
}

/** Resolves when every client is closed; rejects (naming how many are open) after `ms`. */
async function allClosed(clients: DrippingClient[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${clients.filter((client) => !client.socket.destroyed).length} of ${clients.length} connections still open after ${ms} ms`,
          ),
        ),
      ms,
    );
  });
  try {
    await Promise.race([Promise.all(clients.map((client) => client.closed)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const status = (client: DrippingClient) => Number(/^HTTP\/1\.1 (\d{3})/.exec(client.received())?.[1]);

/**
 * A new client's initialize answer once the closed connections' slots are free: the server frees a
 * slot when it sees the socket close, a moment after the client does (later on a loaded machine), so
 * a 503 is retried for 5 s.
 */
async function initializeOnceFreed(url: string): Promise<string> {
  let answer = await rawInitialize(url);
  for (const started = Date.now(); answer.status === 503 && Date.now() - started < 5_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await rawInitialize(url);
  }
  return `${answer.status} ${answer.body.slice(0, 300)}`;
}

describe('quiver serve --http bounds what slow clients can hold', () => {
  const dirs = tempDirs('quiver-http-bounds-');
  const servers: RunningHttpServe[] = [];
  const clients: DrippingClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    for (const server of servers.splice(0)) await server.stop();
    dirs.cleanup();
  });
  const serve = async (args: string[]) => {
    const dir = dirs.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: dev\n');
    write(path.join(dir, 'personalities/dev.yaml'), 'id: dev\nplugins: [tools-code]\n');
    const server = await startHttpServe(dir, args);
    servers.push(server);
    return server;
  };
  const open = (url: string, options?: Parameters<typeof drip>[1]) => {
    const client = drip(url, options);
    clients.push(client);
    return client;
  };

  it('answers 408 to bodies and headers that drip past their timeouts and 503 past --max-connections', async () => {
    const { url } = await serve(['--header-timeout', '1', '--body-timeout', '1', '--max-connections', '6']);
    const dripping = Array.from({ length: 10 }, () => open(url));
    const slowHeaders = open(url, { headersOnly: true });
    // Timeouts of 1 s: every connection is answered and closed well within 15 s (Node's default is 300 s).
    await allClosed([...dripping, slowHeaders], 15_000);
    const statuses = dripping.map(status);
    expect(statuses.filter((code) => code === 503).length).toBeGreaterThanOrEqual(4);
    expect(statuses.every((code) => code === 503 || code === 408)).toBe(true);
    expect(dripping.find((client) => status(client) === 503)?.received()).toContain('--max-connections');
    expect(dripping.find((client) => status(client) === 408)?.received()).toContain('--body-timeout');
    // The server took no harm: a new client still opens a session.
    expect(await initializeOnceFreed(url)).toMatch(/^200 /);
  }, 30_000);

  it('closes connections that send nothing at --header-timeout, so idle sockets cannot hold every slot', async () => {
    const { url } = await serve(['--max-connections', '10', '--header-timeout', '2']);
    const { hostname, port } = new URL(url);
    const idle = Array.from({ length: 15 }, () => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
      });
      const client: DrippingClient = {
        socket,
        received: () => received,
        closed: new Promise<void>((resolve) => socket.once('close', () => resolve())),
      };
      clients.push(client);
      return client;
    });
    // Each is answered 408 naming the option at the timeout (Node's own check closed them up to an interval later, without a word).
    await allClosed(idle, 6_000);
    const answers = idle.map((client) => client.received()).filter((received) => received !== '');
    expect(
      answers.some((received) => received.includes('--header-timeout')),
      answers.join('\n---\n'),
    ).toBe(true);
    expect(await initializeOnceFreed(url)).toMatch(/^200 /);
  }, 20_000);

  it('answers 429 to a request past --max-session-connections of one MCP session', async () => {
    const { url } = await serve(['--max-session-connections', '2', '--body-timeout', '2']);
    const { sessionId } = await rawInitialize(url);
    expect(sessionId).toBeDefined();
    const held = [open(url, { sessionId }), open(url, { sessionId })];
    await new Promise((resolve) => setTimeout(resolve, 500));
    const third = open(url, { sessionId });
    await allClosed([third], 10_000);
    expect(status(third)).toBe(429);
    expect(third.received()).toContain('--max-session-connections');
    await allClosed(held, 15_000);
    expect(held.map(status)).toEqual([408, 408]);
  }, 30_000);
});
