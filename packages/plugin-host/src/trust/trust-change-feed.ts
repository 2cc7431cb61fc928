import { randomUUID } from 'node:crypto';
import type { Logger } from '@quiver/types';
import type pg from 'pg';

/** Every replica listens here; the payload names the project and the writer. */
const CHANNEL = 'quiver_trust_changes';
const RELISTEN_DELAY_MS = 1_000;

export interface TrustChangeFeedOptions {
  pool: pg.Pool;
  project: string;
  logger: Logger;
  /** Another writer changed the project's trust record or pins (or the feed was down): reload. */
  onChange: () => void;
}

/**
 * How the replicas of a project hear each other's trust changes: `NOTIFY` after each write,
 * `LISTEN` on a connection of its own. A lost connection is reopened, and `onChange` is called
 * then too, since changes made meanwhile were not heard. A writer does not hear itself.
 */
export class TrustChangeFeed {
  readonly #options: TrustChangeFeedOptions;
  readonly #writer = randomUUID();
  #listener: pg.PoolClient | undefined;
  #relisten: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: TrustChangeFeedOptions) {
    this.#options = options;
  }

  static async start(options: TrustChangeFeedOptions): Promise<TrustChangeFeed> {
    const feed = new TrustChangeFeed(options);
    await feed.#listen();
    return feed;
  }

  /** Tells the other replicas of the project that something changed. */
  async notify(): Promise<void> {
    await this.#options.pool.query('SELECT pg_notify($1, $2)', [
      CHANNEL,
      JSON.stringify({ project: this.#options.project, writer: this.#writer }),
    ]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#relisten);
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
      listener.release();
    }
  }

  async #listen(): Promise<void> {
    const client = await this.#options.pool.connect();
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      const { project, writer } = parseNotice(message.payload);
      if (project === this.#options.project && writer !== this.#writer) this.#options.onChange();
    });
    client.on('error', (error) => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      client.release(error);
      if (this.#closed) return;
      this.#options.logger.warn(
        `Lost the PostgreSQL feed of trust changes (${error.message}); reconnecting.`,
      );
      this.#retry();
    });
    try {
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    this.#listener = client;
  }

  #retry(): void {
    this.#relisten = setTimeout(() => {
      if (this.#closed) return;
      this.#listen().then(
        () => this.#options.onChange(),
        () => {
          if (!this.#closed) this.#retry();
        },
      );
    }, RELISTEN_DELAY_MS);
    this.#relisten.unref();
  }
}

/** Another process may notify on the channel too: what is not a notice of ours is ignored. */
function parseNotice(payload: string): { project?: unknown; writer?: unknown } {
  try {
    const parsed = JSON.parse(payload) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
