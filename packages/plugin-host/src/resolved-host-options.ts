import type { ModelProfile, SqliteBackend } from '@quiver/runtime';
import type { QuiverConfig } from './config/config-schema.js';
import type { Personality } from './personality/index.js';
import type { UnloadedPlugin } from './plugins/unloaded-plugin.js';
import type { SharedStorage } from './storage/shared-storage.js';
import type { CodeTrust } from './trust/code-trust.js';
import type { TrustStorage } from './trust/trust-storage.js';
import type { TrustedWorkspaceFiles } from './trust/workspace-file-pins.js';

/** What the host is started with: the root scope's `hostOptions` service. */
export interface HostOptions {
  workspace: string;
  dataDir: string;
  configDir: string;
  config: QuiverConfig;
  /**
   * Every file and directory Quiver loaded as configuration or code: tools must not write them.
   * Grows when a personality file is resolved later.
   */
  loadedConfigurationPaths: string[];
  /**
   * What a plugin receives as its `config` service: `config.pluginConfig[id]` overlaid by the
   * personality's settings for it (default: the personality the host starts with).
   */
  pluginConfig(pluginId: string, personality?: Personality): Record<string, unknown>;
  /** Model profiles added to the built-in ones. */
  profiles?: ModelProfile[];
  /** The SQLite driver of `sessions.db` and `permissions.db` (see `CreateHostOptions.sqlite`). */
  sqlite?: SqliteBackend;
  /** Built-in plugins left out of this process, with their declared tools (see `CreateHostOptions.unloadedPlugins`). */
  unloadedPlugins?: readonly UnloadedPlugin[];
  /** Where the SQLite session log commits (see `CreateHostOptions.sessionLogWriter`). */
  sessionLogWriter?: 'thread' | 'calling-thread';
  /** Grants and the session log on PostgreSQL, when quiver.yaml says `storage: { kind: postgres }`. */
  sharedStorage?: SharedStorage;
  /** The trust record and pinned MCP tool definitions: files of the user's, or PostgreSQL with sharedStorage. */
  trustStorage: TrustStorage;
  /** The code trust pinned: plugins and stdio servers are checked against it before they run. */
  codeTrust?: CodeTrust;
  /** Workspace files a person pinned (what allowed programs read): the permission engine's `filePins`. */
  filePins?: TrustedWorkspaceFiles;
}
