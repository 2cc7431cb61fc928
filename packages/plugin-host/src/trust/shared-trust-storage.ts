import type { Logger, PortableMigrations, SqlParameter, SqlStore } from '@quiver/types';
import { type CodePins, pinTrustedCode } from './code-pins.js';
import type { FilePins } from './file-pins.js';
import type { McpToolPin, McpToolPinEntry, McpToolPinFile, McpToolPinStore } from './mcp-tool-pins.js';
import type { ProjectConfiguration } from './project-configuration.js';
import type { McpToolDefinitionApproval, TrustStorage } from './trust-storage.js';
import { fingerprintConfiguration, fingerprintMatches, type TrustRecord } from './trust-store.js';

/**
 * Index + 1 is the schema version (concern `trust`). JSON columns are JSONB on PostgreSQL and
 * text on SQLite; both are written as JSON text and read back through CAST(… AS TEXT).
 */
export const TRUST_MIGRATIONS: PortableMigrations = {
  sqlite: [
    `CREATE TABLE trust_records (
       project TEXT PRIMARY KEY,
       record TEXT NOT NULL,
       trusted_at TEXT NOT NULL
     );
     CREATE TABLE mcp_tool_pins (
       project TEXT NOT NULL,
       server TEXT NOT NULL,
       tool TEXT NOT NULL,
       pinned TEXT NOT NULL,
       pending TEXT,
       PRIMARY KEY (project, server, tool)
     )`,
  ],
  postgres: [
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
  ],
};

export interface SharedTrustStorageOptions {
  /** A store migrated with `TRUST_MIGRATIONS`; its change feed (if any) tells this one of other writers. */
  store: SqlStore;
  /** Which project: replicas serving one project use the same key. */
  project: string;
  /** Where failed writes and a lost change feed are reported. */
  logger: Logger;
  /** The workspace whose code a record pins when `writeRecord` is not given the pins. */
  workspace?: string;
  /** Called by `close` (the opener's cleanup, such as ending a connection pool of its own). */
  onClose?: () => Promise<void>;
}

interface PinRow {
  server: string;
  tool: string;
  pinned: string;
  pending: string | null;
}

/**
 * A project's trust record and pins in a store shared by every replica of the project (written
 * once against `SqlStore`; PostgreSQL in practice). Both are loaded when it opens and kept in
 * memory, so trust is evaluated and pins are checked without a round trip; every change is
 * written through, and the other replicas reload on the notice the store's change feed carries.
 */
export class SharedTrustStorage implements TrustStorage {
  readonly kind = 'postgres';
  readonly recordLocation: string;
  readonly pinsLocation: string;
  readonly #store: SqlStore;
  readonly #project: string;
  readonly #topic: string;
  readonly #logger: Logger;
  readonly #onClose: (() => Promise<void>) | undefined;
  readonly #workspace: string | undefined;
  readonly #watchers = new Set<() => void>();
  readonly #recordWatchers = new Set<() => void>();
  #record: TrustRecord | undefined;
  #pins: McpToolPinFile;
  #writes: Promise<void> = Promise.resolve();
  #stopListening: (() => Promise<void>) | undefined;
  #closed = false;

  private constructor(options: SharedTrustStorageOptions) {
    this.#store = options.store;
    this.#project = options.project;
    this.#topic = `trust:${options.project}`;
    this.#logger = options.logger;
    this.#onClose = options.onClose;
    this.#workspace = options.workspace;
    const backend = options.store.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    this.recordLocation = `${backend} (trust_records, project ${JSON.stringify(options.project)})`;
    this.pinsLocation = `${backend} (mcp_tool_pins, project ${JSON.stringify(options.project)})`;
    this.#pins = { version: 1, workspace: options.project, servers: {} };
  }

  static async open(options: SharedTrustStorageOptions): Promise<SharedTrustStorage> {
    const storage = new SharedTrustStorage(options);
    storage.#stopListening = await options.store.changes?.listen(
      storage.#topic,
      () =>
        storage.#reload().then(
          () => storage.#changed(),
          (error: Error) =>
            options.logger.warn(`Reloading the trust record and MCP tool pins failed: ${error.message}`),
        ),
      (error) => options.logger.warn(`Lost the feed of trust changes (${error.message}); reconnecting.`),
    );
    try {
      await storage.#reload();
    } catch (error) {
      await storage.#stopListening?.();
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
    await this.#store.transaction((tx) =>
      tx.run(
        `INSERT INTO trust_records (project, record, trusted_at) VALUES (?, ?, ?)
           ON CONFLICT (project) DO UPDATE SET record = excluded.record, trusted_at = excluded.trusted_at`,
        [this.#project, JSON.stringify(record), record.trustedAt],
      ),
    );
    this.#record = record;
    await this.#notify();
    return this.recordLocation;
  }

  /** Merged into the stored record in one serializable transaction, so that pins added by another replica stay. */
  async pinFiles(files: FilePins): Promise<boolean> {
    const record = await this.#store.transaction(
      async (tx) => {
        const row = await tx.get<{ record: string }>(
          'SELECT CAST(record AS TEXT) AS record FROM trust_records WHERE project = ?',
          [this.#project],
        );
        if (row === undefined) return undefined;
        const stored = JSON.parse(row.record) as TrustRecord;
        const code = { plugins: {}, servers: {}, files: {}, ...stored.code };
        const merged: TrustRecord = { ...stored, code: { ...code, files: { ...code.files, ...files } } };
        await tx.run('UPDATE trust_records SET record = ? WHERE project = ?', [
          JSON.stringify(merged),
          this.#project,
        ]);
        return merged;
      },
      { isolation: 'serializable' },
    );
    if (record === undefined) return false;
    // trustedAt is unchanged: other replicas reload the pins without reopening the configuration.
    this.#record = record;
    await this.#notify();
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
        this.#write('UPDATE mcp_tool_pins SET pending = ? WHERE project = ? AND server = ? AND tool = ?', [
          JSON.stringify(pending),
          this.#project,
          server,
          tool,
        ]);
      },
      settle: (server, tool) => {
        const entry = this.#pins.servers[server]?.[tool];
        if (entry?.pending === undefined) return;
        delete entry.pending;
        this.#write('UPDATE mcp_tool_pins SET pending = NULL WHERE project = ? AND server = ? AND tool = ?', [
          this.#project,
          server,
          tool,
        ]);
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
    const key = [this.#project, change.server, change.tool];
    const pinned = await this.#store.transaction(
      async (tx) => {
        const row = await tx.get<{ pending: string | null }>(
          'SELECT CAST(pending AS TEXT) AS pending FROM mcp_tool_pins WHERE project = ? AND server = ? AND tool = ?',
          key,
        );
        const pending = row?.pending == null ? undefined : (JSON.parse(row.pending) as McpToolPin);
        if (pending?.hash !== change.hash) return undefined;
        await tx.run(
          'UPDATE mcp_tool_pins SET pinned = pending, pending = NULL WHERE project = ? AND server = ? AND tool = ?',
          key,
        );
        return pending;
      },
      { isolation: 'serializable' },
    );
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
    await this.#writes;
    await this.#stopListening?.().catch(() => {});
    await this.#onClose?.().catch(() => {});
  }

  #pin(server: string, tool: string, pin: McpToolPin): void {
    if (this.#pins.servers[server]?.[tool] !== undefined) return;
    this.#pins.servers[server] = { ...this.#pins.servers[server], [tool]: { pinned: pin } };
    // The first pin wins: another replica may have pinned this tool since it was loaded.
    this.#write(
      'INSERT INTO mcp_tool_pins (project, server, tool, pinned) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [this.#project, server, tool, JSON.stringify(pin)],
      (inserted) => (inserted ? undefined : this.#refresh().then(() => this.#changed())),
    );
  }

  /** Queued so that the database sees this replica's changes in the order it made them. */
  #write(
    sql: string,
    parameters: SqlParameter[],
    after?: (changedRows: boolean) => Promise<void> | undefined,
  ): void {
    this.#writes = this.#writes.then(async () => {
      try {
        const { changes } = await this.#store.transaction((tx) => tx.run(sql, parameters));
        await this.#notify();
        await after?.(changes > 0);
      } catch (error) {
        this.#logger.warn(
          `A change to the MCP tool pins was not saved in PostgreSQL: ${(error as Error).message}`,
        );
      }
    });
  }

  async #readPinRows(): Promise<McpToolPinFile['servers']> {
    const rows = await this.#store.all<PinRow>(
      `SELECT server, tool, CAST(pinned AS TEXT) AS pinned, CAST(pending AS TEXT) AS pending
         FROM mcp_tool_pins WHERE project = ?`,
      [this.#project],
    );
    const servers: McpToolPinFile['servers'] = {};
    for (const row of rows) {
      const entry: McpToolPinEntry = {
        pinned: JSON.parse(row.pinned) as McpToolPin,
        ...(row.pending ? { pending: JSON.parse(row.pending) as McpToolPin } : {}),
      };
      servers[row.server] = { ...servers[row.server], [row.tool]: entry };
    }
    return servers;
  }

  async #readRecord(): Promise<TrustRecord | undefined> {
    const row = await this.#store.get<{ record: string }>(
      'SELECT CAST(record AS TEXT) AS record FROM trust_records WHERE project = ?',
      [this.#project],
    );
    const record = row === undefined ? undefined : (JSON.parse(row.record) as TrustRecord);
    const valid =
      record?.version === 1 &&
      record.workspace === this.#project &&
      typeof record.configuration === 'object' &&
      record.configuration !== null &&
      fingerprintMatches(record);
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

  async #notify(): Promise<void> {
    await this.#store.changes?.notify(this.#topic);
  }

  #changed(): void {
    for (const watcher of this.#watchers) watcher();
  }
}
