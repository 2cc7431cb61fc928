import type { Client } from '@modelcontextprotocol/client';
import { LOG_LEVELS } from '@quiver/types';
import { cleanDefinitionText } from './clean-text.js';

/** The levels of MCP's `notifications/message`, least severe first. */
export const SERVER_LOG_LEVELS = LOG_LEVELS;
export type ServerLogLevel = (typeof LOG_LEVELS)[number];

/** At most this many log messages per server and second are passed on; the rest are counted. */
export const SERVER_LOG_MESSAGES_PER_SECOND = 10;
/** Longer messages are cut, with a marker saying how much. */
export const MAX_SERVER_LOG_CHARS = 2_000;

/** One log message of a server, cleaned, or the count of those the limit dropped. */
export interface McpServerLogEntry {
  server: string;
  level: ServerLogLevel;
  /** The server's logger name, cleaned; absent for Quiver's own count of dropped messages. */
  logger?: string;
  message: string;
  /** Set on Quiver's notice of messages dropped since the last one passed on. */
  dropped?: number;
}

function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

/**
 * Passes a server's log messages on (`notifications/message`), at most
 * `SERVER_LOG_MESSAGES_PER_SECOND` in each one-second window; at the end of a window that dropped
 * some, one warning says how many. Text is cleaned like definitions: a server's log is read by
 * people and may reach a model.
 */
export class ServerLogLimit {
  #windowStart = Number.NEGATIVE_INFINITY;
  #passed = 0;
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly server: string,
    private readonly emit: (entry: McpServerLogEntry) => void,
    private readonly perSecond = SERVER_LOG_MESSAGES_PER_SECOND,
  ) {}

  /** Forwards `client`'s log notifications through this limit while `isCurrent()` holds. */
  install(client: Client, isCurrent: () => boolean): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      if (isCurrent()) this.receive(notification.params);
    });
  }

  receive(params: { level: string; logger?: string; data?: unknown }): void {
    const now = Date.now();
    if (now - this.#windowStart >= 1_000) {
      this.#reportDropped();
      this.#windowStart = now;
      this.#passed = 0;
    }
    if (this.#passed >= this.perSecond) {
      this.#dropped += 1;
      this.#timer ??= setTimeout(() => this.#reportDropped(), this.#windowStart + 1_000 - now);
      this.#timer.unref();
      return;
    }
    this.#passed += 1;
    const level = (SERVER_LOG_LEVELS as readonly string[]).includes(params.level)
      ? (params.level as ServerLogLevel)
      : 'info';
    const logger =
      typeof params.logger === 'string' ? cleanDefinitionText(params.logger, 100).text : undefined;
    this.emit({
      server: this.server,
      level,
      ...(logger ? { logger } : {}),
      message: cleanDefinitionText(textOf(params.data), MAX_SERVER_LOG_CHARS).text,
    });
  }

  /** Says how many were dropped, if any, and stops the timer. */
  close(): void {
    this.#reportDropped();
  }

  #reportDropped(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dropped === 0) return;
    const dropped = this.#dropped;
    this.#dropped = 0;
    this.emit({
      server: this.server,
      level: 'warning',
      message: `Quiver dropped ${dropped} log messages of MCP server "${this.server}": it sent more than ${this.perSecond} a second.`,
      dropped,
    });
  }
}
