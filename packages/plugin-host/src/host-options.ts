import type { ModelProfile, SqliteBackend } from '@quiver/runtime';
import type { CapabilityBackend, Logger, PluginDefinition } from '@quiver/types';
import type { QuiverConfig, QuiverConfigInput } from './config/config-schema.js';
import type { Personality } from './personality/index.js';
import type { OnDemandPlugin } from './plugins/on-demand-plugin.js';
import type { FailedPluginInfo, LoadedPluginInfo } from './plugins/plugin-catalog.js';
import type { UnloadedPlugin } from './plugins/unloaded-plugin.js';
import type { ServiceDescriptor } from './scopes.js';
import type { PostgresBackendLoader } from './storage/postgres-backend.js';
import type { ProjectTrustOptions } from './trust/inspect-project.js';
import type { TrustStorage } from './trust/trust-storage.js';

/** What `QuiverHost.create` is given. */
export interface BuiltinPlugin {
  definition: PluginDefinition<any>;
  source: string;
}

export interface BackendFactoryContext {
  workspace: string;
  dataDir: string;
  /** The resolved personality of a session, by id (for per-personality grants such as secrets). */
  personality(id: string): Personality | undefined;
  /** The protected-path list as it stands now (it grows as configuration loads): what sandboxes mount read-only. */
  protectedPaths(): ReadonlyArray<{
    path: string;
    reason?: string;
    sandbox?: 'read-only' | 'tools-only';
    read?: 'denied';
  }>;
}

export interface CreateHostOptions {
  /** Directory the config file lives in (relative paths resolve from it); default the workspace. */
  configDir?: string;
  config?: QuiverConfigInput;
  configPath?: string;
  /** Workspace root; default from the config (relative to the config dir), else cwd. */
  workspace?: string;
  dataDir?: string;
  /**
   * Plugins always present in the catalog (first-party extensions), loaded before config plugins,
   * in this order. An `OnDemandPlugin` is imported only when the configuration needs it.
   */
  builtinPlugins?: (BuiltinPlugin | OnDemandPlugin)[];
  /** Built-in plugins left out of this process (see UnloadedPlugin); default none. */
  unloadedPlugins?: readonly UnloadedPlugin[];
  backends?: (context: BackendFactoryContext) => CapabilityBackend[];
  /** Personalities available by name without a file (e.g. the embedded default). */
  embeddedPersonalities?: Record<string, unknown>;
  profiles?: ModelProfile[];
  logger?: Logger;
  /** Where a plugin's `config` service comes from, by plugin id (default: `pluginConfig.<id>`). */
  pluginConfigSources?: Record<
    string,
    (config: QuiverConfig, context: PluginConfigContext) => Record<string, unknown>
  >;
  /** The personality sessions use when none is named; default the config's `defaultPersonality`. */
  personality?: string;
  /**
   * Check the project configuration (a quiver.yaml file and personality files) against what a
   * person trusted. Absent: everything found is used as is (an embedder's own configuration).
   */
  trust?: ProjectTrustOptions;
  /**
   * Services of the embedder's own, built per scope like the host's: checked for scope
   * violations at startup, then registered in every container of their scope.
   */
  services?: ServiceDescriptor[];
  /**
   * Receives the trust storage before plugins load: what the MCP bridge pins definitions in
   * (the user's files, or PostgreSQL when quiver.yaml says `storage: { kind: postgres }`).
   */
  trustStorageOpened?: (storage: TrustStorage) => void;
  /** Where `${VARIABLE}` references of quiver.yaml (the storage URL) are read; default process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * Loads the PostgreSQL backend when quiver.yaml keeps state there (`@quiver/wiring` passes
   * `() => import('@quiver/storage-postgres')`): a host on SQLite never loads the driver.
   */
  postgres?: PostgresBackendLoader;
  /**
   * The SQLite driver the session log (`sessions.db`) and saved grants (`permissions.db`) are
   * opened with: `sqliteBackend` of `@quiver/storage-sqlite`, or a function that imports it, which
   * the host calls only when quiver.yaml keeps state in SQLite (`@quiver/wiring` passes one, so a
   * host on PostgreSQL never loads better-sqlite3). Without it the host loads no driver, sessions
   * run without a log (told so once) and no saved grant applies.
   */
  sqlite?: SqliteBackend | (() => Promise<SqliteBackend>);
  /**
   * Where the SQLite session log commits sessions' events: `thread` (default) on a writer thread
   * of its own; `calling-thread` where they are made, for a process that runs one call and ends.
   */
  sessionLogWriter?: 'thread' | 'calling-thread';
}

export interface PluginConfigContext {
  /** The effective personality sessions use by default; undefined when it does not resolve. */
  personality(): Personality | undefined;
}

export interface PluginStatus {
  loaded: LoadedPluginInfo[];
  failed: FailedPluginInfo[];
}
