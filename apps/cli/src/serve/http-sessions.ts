import type { ServerResponse } from 'node:http';
import { errorMessage } from '@quiver/types';
import type { SessionLimits } from './http-session-limits.js';
import type { ServeConnection } from './mcp-server.js';
import type { HandleHttpRequest } from './rebuilt-session.js';
import type { SharedSessionState } from './shared-session.js';

export interface HttpSession {
  handle: HandleHttpRequest;
  connection: ServeConnection;
  /** With PostgreSQL storage: the session's shared record, which other replicas answer from. */
  shared?: SharedSessionState;
  /** Requests under way, open SSE streams included: a session with one is never idle. */
  active: number;
  lastActive: number;
}

/**
 * The open MCP sessions of the HTTP server, each closed after `idleTimeoutMs` without a request;
 * abandoned sessions would otherwise keep their Quiver session (and its memory) for good. At
 * `maxSessions` a new session takes the place of the longest-idle one.
 */
export class HttpSessions {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #limits: SessionLimits;
  readonly #now: () => number;
  readonly #log: (message: string) => void;
  readonly #sweeper: NodeJS.Timeout;

  constructor(limits: SessionLimits, log: (message: string) => void, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
    this.#log = log;
    const every = Math.min(Math.max(limits.idleTimeoutMs / 4, 50), 60_000);
    this.#sweeper = setInterval(() => {
      this.#closeIdle().catch((error: unknown) =>
        log(`closing idle MCP sessions failed: ${errorMessage(error)}`),
      );
    }, every);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(sessionId: string): HttpSession | undefined {
    return this.#sessions.get(sessionId);
  }

  add(sessionId: string, session: Pick<HttpSession, 'handle' | 'connection' | 'shared'>): HttpSession {
    const entry: HttpSession = { ...session, active: 0, lastActive: this.#now() };
    this.#sessions.set(sessionId, entry);
    return entry;
  }

  /** Marks a session busy for as long as one of its HTTP responses is open (SSE streams stay open). */
  async track<T>(entry: HttpSession, response: ServerResponse, handle: () => Promise<T>): Promise<T> {
    entry.active += 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      entry.active -= 1;
      entry.lastActive = this.#now();
    };
    response.once('close', end);
    try {
      return await handle();
    } finally {
      if (response.writableEnded || response.destroyed) end();
    }
  }

  /**
   * Makes room for one more session: below the cap there is room; at it the longest-idle session
   * is closed. False when every session is busy, so the caller refuses the new one.
   */
  async makeRoom(): Promise<boolean> {
    if (this.#sessions.size < this.#limits.maxSessions) return true;
    let oldest: [string, HttpSession] | undefined;
    for (const entry of this.#sessions)
      if (entry[1].active === 0 && (!oldest || entry[1].lastActive < oldest[1].lastActive)) oldest = entry;
    if (!oldest) return false;
    await this.drop(oldest[0]);
    return true;
  }

  async drop(sessionId: string): Promise<void> {
    const entry = this.#sessions.get(sessionId);
    if (!entry) return;
    this.#sessions.delete(sessionId);
    await entry.connection.close();
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.keys()].map((sessionId) => this.drop(sessionId)));
  }

  async #closeIdle(): Promise<void> {
    const deadline = this.#now() - this.#limits.idleTimeoutMs;
    const idle = [...this.#sessions].filter(
      ([, entry]) => entry.active === 0 && entry.lastActive <= deadline,
    );
    await Promise.all(
      idle.map(async ([sessionId]) => {
        await this.drop(sessionId);
        this.#log(`closed MCP session ${sessionId}: idle longer than ${this.#limits.idleTimeoutMs / 1000} s`);
      }),
    );
  }
}
