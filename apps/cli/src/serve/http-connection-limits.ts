import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CliError } from '../output.js';

/** How long a client may take to send a request, and how many connections it may hold. */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this long. */
  headerTimeoutMs: number;
  /** The body must arrive within this long after the headers. */
  bodyTimeoutMs: number;
  /** Open connections in total; on loopback every client has the same address, so this is not per address. */
  maxConnections: number;
  /** Requests under way at once per MCP session (by Mcp-Session-Id), open event streams included. */
  maxSessionConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headerTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  maxConnections: 256,
  maxSessionConnections: 32,
};

/** `--header-timeout`, `--body-timeout` (seconds), `--max-connections`, `--max-session-connections`. */
export function parseConnectionLimits(options: {
  headerTimeout?: string;
  bodyTimeout?: string;
  maxConnections?: string;
  maxSessionConnections?: string;
}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS };
  const seconds = (flag: string, text: string | undefined, example: string) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0 || value > 3600)
      throw new CliError(
        `${flag} must be a number of seconds above 0 and at most 3600, not "${text}".`,
        `For example ${flag} ${example}.`,
      );
    return Math.round(value * 1000);
  };
  const count = (flag: string, text: string | undefined, example: string) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new CliError(
        `${flag} must be a whole number of at least 1, not "${text}".`,
        `For example ${flag} ${example}.`,
      );
    return value;
  };
  limits.headerTimeoutMs = seconds('--header-timeout', options.headerTimeout, '10') ?? limits.headerTimeoutMs;
  limits.bodyTimeoutMs = seconds('--body-timeout', options.bodyTimeout, '30') ?? limits.bodyTimeoutMs;
  limits.maxConnections = count('--max-connections', options.maxConnections, '256') ?? limits.maxConnections;
  limits.maxSessionConnections =
    count('--max-session-connections', options.maxSessionConnections, '32') ?? limits.maxSessionConnections;
  return limits;
}

/** How much later than the guard Node's own deadlines fall. */
const NODE_BACKSTOP_MS = 1000;

/**
 * Node's own request timeouts, as a backstop of the guard's timers below; checked often enough to
 * matter. Node's headers deadline is a second later than the guard's, so a first request's headers
 * are always refused by the guard (408 naming --header-timeout), never by Node racing it with a bare
 * 408; Node's applies to later requests on a kept-alive connection.
 */
export function serverTimeouts(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headerTimeoutMs + NODE_BACKSTOP_MS,
    requestTimeout: limits.headerTimeoutMs + limits.bodyTimeoutMs + NODE_BACKSTOP_MS,
    connectionsCheckingInterval: Math.max(250, Math.min(limits.headerTimeoutMs / 2, 5000)),
  };
}

type Refuse = (response: ServerResponse, status: number, message: string) => void;

/**
 * Bounds what clients can hold open: a connection that has not sent its first request's headers
 * within `headerTimeoutMs` is answered 408 and closed (whether it sent anything or not), connections over `maxConnections` are answered 503 as soon
 * as their headers arrive (and closed at once past twice the cap), a request whose body has not
 * arrived within `bodyTimeoutMs` is answered 408 and its connection closed, and an MCP session
 * may have `maxSessionConnections` requests under way. Node's default would keep a client that
 * drips a body for 300 s.
 */
export class ConnectionGuard {
  readonly #limits: ConnectionLimits;
  readonly #refuse: Refuse;
  readonly #over = new WeakSet<Socket>();
  readonly #perSession = new Map<string, number>();
  readonly #waitingForHeaders = new WeakMap<Socket, NodeJS.Timeout>();
  #open = 0;

  constructor(server: Server, limits: ConnectionLimits, refuse: Refuse) {
    this.#limits = limits;
    this.#refuse = refuse;
    server.on('connection', (socket: Socket) => {
      if (this.#open >= limits.maxConnections * 2) {
        socket.destroy();
        return;
      }
      if (this.#open >= limits.maxConnections) this.#over.add(socket);
      this.#open += 1;
      this.#awaitHeaders(socket);
      socket.once('close', () => {
        this.#open -= 1;
        clearTimeout(this.#waitingForHeaders.get(socket));
      });
    });
  }

  /**
   * A connection must complete its first request's headers within `headerTimeoutMs` of opening,
   * sent bytes or not. Node checks its own headersTimeout only every connectionsCheckingInterval,
   * so an idle socket would hold its slot up to that much longer; this closes it at the timeout.
   * Later requests on a kept-alive connection are bounded by Node's keepAliveTimeout and headersTimeout.
   */
  #awaitHeaders(socket: Socket): void {
    const timer = setTimeout(() => {
      this.#waitingForHeaders.delete(socket);
      if (socket.destroyed) return;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Request timeout: no complete request headers within ${this.#limits.headerTimeoutMs / 1000} s of connecting (--header-timeout).`,
        },
        id: null,
      });
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      setTimeout(() => socket.destroy(), 1000).unref();
    }, this.#limits.headerTimeoutMs);
    timer.unref();
    this.#waitingForHeaders.set(socket, timer);
  }

  /** False when the request was answered here (over a limit); otherwise its limits are watched. */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    clearTimeout(this.#waitingForHeaders.get(request.socket));
    this.#waitingForHeaders.delete(request.socket);
    if (this.#over.has(request.socket)) {
      this.#close(
        response,
        503,
        `Too many open connections: all ${this.#limits.maxConnections} are in use. Close connections you no longer use, or start quiver serve with a larger --max-connections.`,
      );
      return false;
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const open = this.#perSession.get(sessionId) ?? 0;
      if (open >= this.#limits.maxSessionConnections) {
        this.#close(
          response,
          429,
          `Too many requests under way on MCP session ${sessionId}: ${open} (open event streams count). Wait for one to finish, or start quiver serve with a larger --max-session-connections.`,
        );
        return false;
      }
      this.#perSession.set(sessionId, open + 1);
      response.once('close', () => {
        const left = (this.#perSession.get(sessionId) ?? 1) - 1;
        if (left > 0) this.#perSession.set(sessionId, left);
        else this.#perSession.delete(sessionId);
      });
    }
    const timer = setTimeout(() => {
      if (request.complete) return;
      this.#close(
        response,
        408,
        `Request timeout: the body did not arrive within ${this.#limits.bodyTimeoutMs / 1000} s of the headers (--body-timeout).`,
      );
    }, this.#limits.bodyTimeoutMs);
    timer.unref();
    response.once('close', () => clearTimeout(timer));
    return true;
  }

  /** Answers (when nothing was sent yet) and closes the connection without waiting for the rest. */
  #close(response: ServerResponse, status: number, message: string): void {
    const socket = response.socket;
    if (response.headersSent) {
      socket?.destroy();
      return;
    }
    response.setHeader('connection', 'close');
    response.once('finish', () => {
      // A moment for the answer to reach the client before the connection goes.
      socket?.end();
      setTimeout(() => socket?.destroy(), 1000).unref();
    });
    this.#refuse(response, status, message);
  }
}
