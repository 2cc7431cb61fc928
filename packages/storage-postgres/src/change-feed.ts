import { randomUUID } from 'node:crypto';
import type { SqlChangeFeed } from '@quiver/types';
import type pg from 'pg';

/** Every process listens here; the payload names the topic and the feed that wrote it. */
const CHANNEL = 'quiver_changes';
const RELISTEN_DELAY_MS = 1_000;

interface Listener {
  topic: string;
  onChange: () => void;
  onLost: ((error: Error) => void) | undefined;
}

/**
 * `SqlChangeFeed` on PostgreSQL: `NOTIFY` after a write, `LISTEN` on one connection of the pool
 * held while anyone listens. A lost connection is reopened (every second until it is back), and
 * each listener is then called, since notices sent meanwhile were not heard.
 */
export function createPostgresChangeFeed(pool: pg.Pool): SqlChangeFeed & { close(): Promise<void> } {
  const writer = randomUUID();
  const listeners = new Set<Listener>();
  let connection: Promise<pg.PoolClient> | undefined;
  let held: pg.PoolClient | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let closed = false;

  const dispatch = (message: pg.Notification): void => {
    if (message.channel !== CHANNEL || message.payload === undefined) return;
    const notice = parseNotice(message.payload);
    if (notice.writer === writer) return;
    for (const listener of listeners) if (listener.topic === notice.topic) listener.onChange();
  };

  const lost = (client: pg.PoolClient, error: Error): void => {
    if (held !== client) return;
    held = undefined;
    connection = undefined;
    client.release(error);
    if (closed || listeners.size === 0) return;
    for (const listener of listeners) listener.onLost?.(error);
    retry();
  };

  const connect = (): Promise<pg.PoolClient> => {
    connection ??= (async () => {
      const client = await pool.connect();
      client.on('notification', dispatch);
      client.on('error', (error) => lost(client, error));
      try {
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      held = client;
      return client;
    })();
    connection.catch(() => {
      connection = undefined;
    });
    return connection;
  };

  const retry = (): void => {
    clearTimeout(relisten);
    relisten = setTimeout(() => {
      if (closed || listeners.size === 0) return;
      connect().then(
        () => {
          for (const listener of listeners) listener.onChange();
        },
        () => retry(),
      );
    }, RELISTEN_DELAY_MS);
    relisten.unref();
  };

  const stopListening = async (): Promise<void> => {
    clearTimeout(relisten);
    const pending = connection;
    connection = undefined;
    const client = await pending?.catch(() => undefined);
    held = undefined;
    if (client === undefined) return;
    await client.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
    client.release();
  };

  return {
    async notify(topic: string): Promise<void> {
      await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, writer })]);
    },
    async listen(topic, onChange, onLost) {
      const listener: Listener = { topic, onChange, onLost };
      listeners.add(listener);
      try {
        await connect();
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return async () => {
        listeners.delete(listener);
        if (listeners.size === 0) await stopListening();
      };
    },
    async close(): Promise<void> {
      closed = true;
      listeners.clear();
      await stopListening();
    },
  };
}

/** Another process may notify on the channel too: what is not a notice of ours is ignored. */
function parseNotice(payload: string): { topic?: unknown; writer?: unknown } {
  try {
    const parsed = JSON.parse(payload) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
