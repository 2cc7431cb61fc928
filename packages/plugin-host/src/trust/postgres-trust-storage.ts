import { randomUUID } from 'node:crypto';
import { applyPostgresMigrations } from '@quiver/storage-postgres';
import type { Logger } from '@quiver/types';
import type pg from 'pg';
import type { McpToolPin, McpToolPinEntry, McpToolPinFile, McpToolPinStore } from './mcp-tool-pins.js';
import type { ProjectConfiguration } from './project-configuration.js';
import type { McpToolDefinitionApproval, TrustStorage } from './trust-storage.js';
import { fingerprintConfiguration, type TrustRecord } from './trust-store.js';

/** Migration i brings the `trust` schema to version i + 1 (see applyPostgresMigrations). */
const TRUST_MIGRATIONS = [
  `CREATE TABLE trust_records (
     project TEXT PRIMARY KEY,
     record JSONB NOT NULL,
     trusted_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
   );
   CREATE TABLE mcp_tool_pins (
     project TEXT NOT NULL,
     server TEXT NOT NULL,
     tool TEXT NOT NULL,
     pinned JSONB NOT NULL,
     pending JSONB,
     PRIMARY KEY (project, server, tool)
   )`,
];

/** Every replica listens here; the payload names the project and the writer. */
const CHANNEL = 'quiver_trust_changes';
const RELISTEN_DELAY_MS = 1_000;

export interface PostgresTrustStorageOptions {
  /** A pool from `connectPostgres`; the caller owns it. */
  pool: pg.Pool;
  /** Which project: replicas serving one project use the same key. */
  project: string;
  /** Where failed writes and a lost change feed are reported. */
  logger: Logger;
  /** End the pool on close (a pool opened for this storage alone). */
  ownsPool?: boolean;
}

interface PinRow {
  server: string;
  tool: string;
  pinned: McpToolPin;
  pending: McpToolPin | null;
}

/**
 * A project's trust record and pins in PostgreSQL. Both are loaded when it opens and kept in
 * memory, so trust is evaluated and pins are checked without a round trip; every change is
 * written through, and the other replicas reload on the notification it sends.
 */
export class PostgresTrustStorage implements TrustStorage {
  readonly kind = 'postgres';
  readonly recordLocation: string;
  readonly pinsLocation: string;
  readonly #pool: pg.Pool;
  readonly #project: string;
  readonly #logger: Logger;
  readonly #ownsPool: boolean;
  readonly #writer = randomUUID();
  readonly #watchers = new Set<() => void>();
  #record: TrustRecord | undefined;
  #pins: McpToolPinFile;
  #writes: Promise<void> = Promise.resolve();
  #listener: pg.PoolClient | undefined;
  #relisten: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: PostgresTrustStorageOptions) {
    this.#pool = options.pool;
    this.#project = options.project;
    this.#logger = options.logger;
    this.#ownsPool = options.ownsPool ?? false;
    this.recordLocation = `PostgreSQL (trust_records, project ${JSON.stringify(options.project)})`;
    this.pinsLocation = `PostgreSQL (mcp_tool_pins, project ${JSON.stringify(options.project)})`;
    this.#pins = { version: 1, workspace: options.project, servers: {} };
  }

  static async open(options: PostgresTrustStorageOptions): Promise<PostgresTrustStorage> {
    await applyPostgresMigrations(options.pool, 'trust', TRUST_MIGRATIONS);
    const storage = new PostgresTrustStorage(options);
    await storage.#listen();
    await storage.#reload();
    return storage;
  }

  record(): TrustRecord | undefined {
    return this.#record;
  }

  async writeRecord(
    configuration: ProjectConfiguration,
    options: { configFile?: string | undefined } = {},
  ): Promise<string> {
    const record: TrustRecord = {
      version: 1,
      workspace: this.#project,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      fingerprint: fingerprintConfiguration(configuration),
      trustedAt: new Date().toISOString(),
      configuration,
    };
    await this.#pool.query(
      `INSERT INTO trust_records (project, record) VALUES ($1, $2)
         ON CONFLICT (project) DO UPDATE SET record = excluded.record, trusted_at = clock_timestamp()`,
      [this.#project, JSON.stringify(record)],
    );
    this.#record = record;
    await this.#notify();
    return this.recordLocation;
  }

  pinStore(): McpToolPinStore {
    return {
      pinned: (server, tool) => this.#pins.servers[server]?.[tool]?.pinned,
      pin: (server, tool, pin) => this.#pin(server, tool, pin),
      quarantine: (server, tool, pending) => {
        const entry = this.#pins.servers[server]?.[tool];
        if (entry === undefined) return;
        entry.pending = pending;
        this.#write(
          'UPDATE mcp_tool_pins SET pending = $4 WHERE project = $1 AND server = $2 AND tool = $3',
          [server, tool, JSON.stringify(pending)],
        );
      },
      settle: (server, tool) => {
        const entry = this.#pins.servers[server]?.[tool];
        if (entry?.pending === undefined) return;
        delete entry.pending;
        this.#write(
          'UPDATE mcp_tool_pins SET pending = NULL WHERE project = $1 AND server = $2 AND tool = $3',
          [server, tool],
        );
      },
      watch: (onChange) => {
        this.#watchers.add(onChange);
        return () => this.#watchers.delete(onChange);
      },
    };
  }

  async readPins(): Promise<McpToolPinFile | undefined> {
    await this.#writes;
    return { version: 1, workspace: this.#project, servers: await this.#readPinRows() };
  }

  async approve(change: McpToolDefinitionApproval): Promise<boolean> {
    await this.#writes;
    const result = await this.#pool.query<{ pinned: McpToolPin }>(
      `UPDATE mcp_tool_pins SET pinned = pending, pending = NULL
         WHERE project = $1 AND server = $2 AND tool = $3 AND pending->>'hash' = $4
         RETURNING pinned`,
      [this.#project, change.server, change.tool, change.hash],
    );
    const pinned = result.rows[0]?.pinned;
    if (pinned === undefined) return false;
    this.#pins.servers[change.server] = { ...this.#pins.servers[change.server], [change.tool]: { pinned } };
    await this.#notify();
    return true;
  }

  /** Waits for the writes made so far (tests, and `close`). */
  async flushed(): Promise<void> {
    await this.#writes;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#relisten);
    await this.#writes;
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) {
      await listener.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
      listener.release();
    }
    if (this.#ownsPool) await this.#pool.end().catch(() => {});
  }

  #pin(server: string, tool: string, pin: McpToolPin): void {
    if (this.#pins.servers[server]?.[tool] !== undefined) return;
    this.#pins.servers[server] = { ...this.#pins.servers[server], [tool]: { pinned: pin } };
    // The first pin wins: another replica may have pinned this tool since it was loaded.
    this.#write(
      `INSERT INTO mcp_tool_pins (project, server, tool, pinned) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
      [server, tool, JSON.stringify(pin)],
      (inserted) => (inserted ? undefined : this.#reload().then(() => this.#changed())),
    );
  }

  /** Queued so that the database sees this replica's changes in the order it made them. */
  #write(
    sql: string,
    parameters: unknown[],
    after?: (changedRows: boolean) => Promise<void> | undefined,
  ): void {
    this.#writes = this.#writes.then(async () => {
      try {
        const result = await this.#pool.query(sql, [this.#project, ...parameters]);
        await this.#notify();
        await after?.((result.rowCount ?? 0) > 0);
      } catch (error) {
        this.#logger.warn(
          `A change to the MCP tool pins was not saved in PostgreSQL: ${(error as Error).message}`,
        );
      }
    });
  }

  async #notify(): Promise<void> {
    await this.#pool.query('SELECT pg_notify($1, $2)', [
      CHANNEL,
      JSON.stringify({ project: this.#project, writer: this.#writer }),
    ]);
  }

  async #readPinRows(): Promise<McpToolPinFile['servers']> {
    const result = await this.#pool.query<PinRow>(
      'SELECT server, tool, pinned, pending FROM mcp_tool_pins WHERE project = $1',
      [this.#project],
    );
    const servers: McpToolPinFile['servers'] = {};
    for (const row of result.rows) {
      const entry: McpToolPinEntry = { pinned: row.pinned, ...(row.pending ? { pending: row.pending } : {}) };
      servers[row.server] = { ...servers[row.server], [row.tool]: entry };
    }
    return servers;
  }

  async #readRecord(): Promise<TrustRecord | undefined> {
    const result = await this.#pool.query<{ record: TrustRecord }>(
      'SELECT record FROM trust_records WHERE project = $1',
      [this.#project],
    );
    const record = result.rows[0]?.record;
    const valid =
      record?.version === 1 &&
      record.workspace === this.#project &&
      typeof record.configuration === 'object' &&
      record.configuration !== null &&
      fingerprintConfiguration(record.configuration) === record.fingerprint;
    return valid ? record : undefined;
  }

  async #reload(): Promise<void> {
    const [record, servers] = await Promise.all([this.#readRecord(), this.#readPinRows()]);
    this.#record = record;
    this.#pins = { version: 1, workspace: this.#project, servers };
  }

  #changed(): void {
    for (const watcher of this.#watchers) watcher();
  }

  /** A dedicated connection hears the other replicas' changes; a lost one reconnects and reloads. */
  async #listen(): Promise<void> {
    const client = await this.#pool.connect();
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      const { project, writer } = JSON.parse(message.payload) as { project?: string; writer?: string };
      if (project !== this.#project || writer === this.#writer) return;
      this.#reload().then(
        () => this.#changed(),
        (error: Error) =>
          this.#logger.warn(`Reloading the trust record and MCP tool pins failed: ${error.message}`),
      );
    });
    client.on('error', (error) => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      client.release(error);
      if (this.#closed) return;
      this.#logger.warn(`Lost the PostgreSQL feed of trust changes (${error.message}); reconnecting.`);
      this.#relisten = setTimeout(() => this.#resume(), RELISTEN_DELAY_MS);
      this.#relisten.unref();
    });
    try {
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    this.#listener = client;
  }

  /** Changes made while the feed was down were missed: reload after listening again. */
  #resume(): void {
    if (this.#closed) return;
    this.#listen()
      .then(() => this.#reload())
      .then(
        () => this.#changed(),
        () => {
          if (this.#closed) return;
          this.#relisten = setTimeout(() => this.#resume(), RELISTEN_DELAY_MS);
          this.#relisten.unref();
        },
      );
  }
}
