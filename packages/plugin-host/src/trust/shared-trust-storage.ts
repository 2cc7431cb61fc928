import { applyPostgresMigrations } from '@quiver/storage-postgres';
import type { Logger } from '@quiver/types';
import type pg from 'pg';
import { type CodePins, pinTrustedCode } from './code-pins.js';
import type { FilePins } from './file-pins.js';
import type { McpToolPin, McpToolPinEntry, McpToolPinFile, McpToolPinStore } from './mcp-tool-pins.js';
import type { ProjectConfiguration } from './project-configuration.js';
import { TrustChangeFeed } from './trust-change-feed.js';
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

export interface PostgresTrustStorageOptions {
  /** A pool from `connectPostgres`; the caller owns it. */
  pool: pg.Pool;
  /** Which project: replicas serving one project use the same key. */
  project: string;
  /** Where failed writes and a lost change feed are reported. */
  logger: Logger;
  /** End the pool on close (a pool opened for this storage alone). */
  ownsPool?: boolean;
  /** The workspace whose code a record pins when `writeRecord` is not given the pins. */
  workspace?: string;
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
  readonly #workspace: string | undefined;
  readonly #watchers = new Set<() => void>();
  readonly #recordWatchers = new Set<() => void>();
  #record: TrustRecord | undefined;
  #pins: McpToolPinFile;
  #writes: Promise<void> = Promise.resolve();
  #feed: TrustChangeFeed | undefined;
  #closed = false;

  private constructor(options: PostgresTrustStorageOptions) {
    this.#pool = options.pool;
    this.#project = options.project;
    this.#logger = options.logger;
    this.#ownsPool = options.ownsPool ?? false;
    this.#workspace = options.workspace;
    this.recordLocation = `PostgreSQL (trust_records, project ${JSON.stringify(options.project)})`;
    this.pinsLocation = `PostgreSQL (mcp_tool_pins, project ${JSON.stringify(options.project)})`;
    this.#pins = { version: 1, workspace: options.project, servers: {} };
  }

  static async open(options: PostgresTrustStorageOptions): Promise<PostgresTrustStorage> {
    await applyPostgresMigrations(options.pool, 'trust', TRUST_MIGRATIONS);
    const storage = new PostgresTrustStorage(options);
    storage.#feed = await TrustChangeFeed.start({
      ...options,
      onChange: () =>
        storage.#reload().then(
          () => storage.#changed(),
          (error: Error) =>
            options.logger.warn(`Reloading the trust record and MCP tool pins failed: ${error.message}`),
        ),
    });
    try {
      await storage.#reload();
    } catch (error) {
      await storage.#feed.close();
      throw error;
    }
    return storage;
  }

  record(): TrustRecord | undefined {
    return this.#record;
  }

  watchRecord(onChange: () => void): () => void {
    this.#recordWatchers.add(onChange);
    return () => this.#recordWatchers.delete(onChange);
  }

  async writeRecord(
    configuration: ProjectConfiguration,
    options: { configFile?: string | undefined; code?: CodePins | undefined } = {},
  ): Promise<string> {
    // Without the pins a person was shown, the code as it is now (none without a workspace: it
    // then starts nothing until trusted where the workspace is known).
    const code =
      options.code ??
      (this.#workspace === undefined
        ? undefined
        : pinTrustedCode(configuration.config, {
            workspace: this.#workspace,
            configFile: options.configFile,
            cache: this.#record?.code,
          }));
    const record: TrustRecord = {
      version: 1,
      workspace: this.#project,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      fingerprint: fingerprintConfiguration(configuration),
      trustedAt: new Date().toISOString(),
      configuration,
      ...(code ? { code } : {}),
    };
    await this.#pool.query(
      `INSERT INTO trust_records (project, record) VALUES ($1, $2)
         ON CONFLICT (project) DO UPDATE SET record = excluded.record, trusted_at = clock_timestamp()`,
      [this.#project, JSON.stringify(record)],
    );
    this.#record = record;
    await this.#feed?.notify();
    return this.recordLocation;
  }

  /** Merged into the stored record in one statement, so that pins added by another replica stay. */
  async pinFiles(files: FilePins): Promise<boolean> {
    const result = await this.#pool.query<{ record: TrustRecord }>(
      `UPDATE trust_records
          SET record = jsonb_set(
                record,
                '{code}',
                jsonb_build_object('plugins', '{}'::jsonb, 'servers', '{}'::jsonb, 'files', '{}'::jsonb)
                  || coalesce(record->'code', '{}'::jsonb)
                  || jsonb_build_object('files', coalesce(record->'code'->'files', '{}'::jsonb) || $2::jsonb))
        WHERE project = $1
        RETURNING record`,
      [this.#project, JSON.stringify(files)],
    );
    const record = result.rows[0]?.record;
    if (record === undefined) return false;
    // trustedAt is unchanged: other replicas reload the pins without reopening the configuration.
    this.#record = record;
    await this.#feed?.notify();
    return true;
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
    await this.#feed?.notify();
    return true;
  }

  /** Waits for the writes made so far (tests, and `close`). */
  async flushed(): Promise<void> {
    await this.#writes;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writes;
    await this.#feed?.close();
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
      (inserted) => (inserted ? undefined : this.#refresh().then(() => this.#changed())),
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
        await this.#feed?.notify();
        await after?.((result.rowCount ?? 0) > 0);
      } catch (error) {
        this.#logger.warn(
          `A change to the MCP tool pins was not saved in PostgreSQL: ${(error as Error).message}`,
        );
      }
    });
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

  /** After this replica's own queued writes, so that what it pinned is not read back as missing. */
  async #reload(): Promise<void> {
    await this.#writes;
    await this.#refresh();
  }

  async #refresh(): Promise<void> {
    const [record, servers] = await Promise.all([this.#readRecord(), this.#readPinRows()]);
    const recordChanged = record?.trustedAt !== this.#record?.trustedAt;
    this.#record = record;
    this.#pins = { version: 1, workspace: this.#project, servers };
    if (recordChanged) for (const watcher of this.#recordWatchers) watcher();
  }

  #changed(): void {
    for (const watcher of this.#watchers) watcher();
  }
}
