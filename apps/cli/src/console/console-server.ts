import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@quiver/types';
import type { ConsoleHub } from './console-hub.js';

export interface ConsoleServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface ConsoleServerOptions {
  hub: ConsoleHub;
  token: string;
  /** The event log's recent calls matching a search, newest first. */
  history(query: string, limit: number): Promise<unknown[]>;
  /** Changed MCP tool definitions waiting for review, and the approval of one the page showed. */
  reviews(): Promise<unknown[]>;
  approveReview(body: unknown): Promise<string | undefined>;
  /** What `quiver trust` shows of the project, and trusting what the page showed (by its hash). */
  trust(): Promise<unknown>;
  trustAnswer(body: unknown): Promise<string | undefined>;
}

const MAX_BODY_BYTES = 64 * 1024;
const CODE_LIFETIME_MS = 60_000;
const PAGE_FILES: Record<string, string> = {
  '/': 'index.html',
  '/page.js': 'page.js',
  '/page.css': 'page.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** dist/console-page, from this module in dist/console (as tsc writes it) or in dist (bundled). */
function pageFile(name: string): Buffer | undefined {
  for (const directory of ['./console-page/', '../console-page/']) {
    try {
      return readFileSync(fileURLToPath(new URL(`${directory}${name}`, import.meta.url)));
    } catch {
      // Not in this layout.
    }
  }
  return undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`the body is larger than ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        resolve(chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the body is not JSON'));
      }
    });
    request.on('error', reject);
  });
}

/**
 * The console's HTTP server on 127.0.0.1 (a free port): the page, and an API that answers only
 * requests naming this host and port (DNS rebinding), from no other origin (CSRF), carrying the
 * secret as a bearer token (never a cookie, which every port of the host would share). Live
 * state streams as server-sent events over a fetch the page makes with that header.
 */
export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const { hub, token } = options;
  const codes = new Map<string, number>();
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const streams = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 400, { error: errorMessage(error) });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host ?? '';
    if (!allowedHosts().has(host)) {
      send(response, 421, {
        error: `the console answers only http://127.0.0.1:${port}, not host "${host}"`,
      });
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      send(response, 403, { error: `requests from origin "${origin}" are refused` });
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      send(response, 403, { error: 'cross-site requests are refused' });
      return;
    }
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const page = PAGE_FILES[url.pathname];
    if (page !== undefined && request.method === 'GET') {
      const body = pageFile(page);
      if (!body) {
        send(response, 500, { error: `the console page is missing (${page}); rebuild the CLI` });
        return;
      }
      response.writeHead(200, {
        'content-type': CONTENT_TYPES[page.split('.').pop() as string] as string,
        'cache-control': 'no-store',
        'content-security-policy':
          "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
      response.end(body);
      return;
    }
    if (url.pathname === '/api/exchange' && request.method === 'POST') {
      // A one-time code (what `quiver console --open` puts in a browser's command line) buys the secret once.
      const { code } = (await readBody(request)) as { code?: unknown };
      const expires = typeof code === 'string' ? codes.get(code) : undefined;
      if (typeof code === 'string') codes.delete(code);
      if (expires === undefined || expires < Date.now()) {
        send(response, 401, { error: 'that code is unknown, used or expired: run `quiver console` again' });
        return;
      }
      send(response, 200, { token });
      return;
    }
    const authorization = request.headers.authorization ?? '';
    const given = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    if (!sameSecret(given, token)) {
      send(response, 401, {
        error: 'the console needs its secret: open the address `quiver console` prints, in your own terminal',
      });
      return;
    }
    if (url.pathname === '/api/ping' && request.method === 'GET') {
      send(response, 200, { ok: true, pid: process.pid });
      return;
    }
    if (url.pathname === '/api/codes' && request.method === 'POST') {
      const code = randomBytes(18).toString('base64url');
      codes.set(code, Date.now() + CODE_LIFETIME_MS);
      send(response, 200, { code });
      return;
    }
    if (url.pathname === '/api/events' && request.method === 'GET') {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      const write = (event: string, data: unknown) =>
        response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // Connected before the snapshot is read, so nothing that happens meanwhile is missed.
      const disconnect = hub.connectPage((message) => write('message', message));
      write('snapshot', await hub.snapshot());
      const servers = setInterval(
        () => void hub.servers().then((list) => write('message', { type: 'servers', servers: list })),
        3_000,
      );
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
      streams.add(response);
      request.on('close', () => {
        clearInterval(servers);
        clearInterval(keepAlive);
        streams.delete(response);
        disconnect();
      });
      return;
    }
    const answer = /^\/api\/asks\/([\w-]+)$/.exec(url.pathname);
    if (answer && request.method === 'POST') {
      const error = hub.answer(answer[1] as string, await readBody(request));
      send(response, error === undefined ? 200 : 409, error === undefined ? { ok: true } : { error });
      return;
    }
    if (url.pathname === '/api/reviews' && request.method === 'GET') {
      send(response, 200, { reviews: await options.reviews() });
      return;
    }
    if (url.pathname === '/api/reviews' && request.method === 'POST') {
      const error = await options.approveReview(await readBody(request));
      send(response, error === undefined ? 200 : 409, error === undefined ? { ok: true } : { error });
      return;
    }
    if (url.pathname === '/api/trust' && request.method === 'GET') {
      send(response, 200, { trust: await options.trust() });
      return;
    }
    if (url.pathname === '/api/trust' && request.method === 'POST') {
      const error = await options.trustAnswer(await readBody(request));
      send(response, error === undefined ? 200 : 409, error === undefined ? { ok: true } : { error });
      return;
    }
    if (url.pathname === '/api/history' && request.method === 'GET') {
      const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 100) || 100, 1), 1_000);
      send(response, 200, { calls: await options.history(url.searchParams.get('q') ?? '', limit) });
      return;
    }
    send(response, 404, { error: `no ${request.method} ${url.pathname} here` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  server.unref();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    async close() {
      hub.close();
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
