import type { CapabilityBackend } from './capabilities.js';
import type { QuiverEvent } from './events.js';
import type { ToolHook } from './hooks.js';
import type { ToolResultReducer } from './reducer.js';
import type { Tool } from './tool.js';

export const SUPPORTED_PLUGIN_API_VERSIONS = [1] as const;
export type PluginApiVersion = (typeof SUPPORTED_PLUGIN_API_VERSIONS)[number];

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface PluginPaths {
  workspace: string;
  dataDir: string;
  /** Directory of the config file that loaded the plugin. */
  configDir: string;
}

/**
 * What sessions under one personality need started: a plugin that starts things on demand (the
 * MCP bridge's servers) starts what this names and nothing that no personality in use enabled.
 */
export interface PersonalityDemand {
  /** Id of the personality the session uses. */
  personality: string;
  /** The MCP servers it enables (keys of the configuration's `mcpServers` table). */
  mcpServers: readonly string[];
  /**
   * The servers whose first connection attempt the caller waits for (a subset of `mcpServers`);
   * empty when the session only asks for them to start.
   */
  awaitServers: readonly string[];
}

export interface PluginLifecycle {
  /** Runs when the host shuts down (close connections, stop processes). */
  onShutdown(fn: () => void | Promise<void>): void;
  /**
   * Runs whenever a session needs what plugins start lazily: when it is created (nothing awaited)
   * and when it waits to be ready. Called again for the same personality; start each thing once.
   * Resolve when `awaitServers` have connected or failed; never reject (report failures as events).
   */
  onDemand(fn: (demand: PersonalityDemand) => void | Promise<void>): void;
}

/** Lets a plugin tell sessions that its tools changed (beyond register/unregister). */
export interface PluginEvents {
  publish(event: QuiverEvent): void;
}

/**
 * Services a plugin may ask for in `requires`. It receives exactly those, nothing else.
 * `config` is the plugin's own section (`pluginConfig.<id>` in quiver.yaml; for the MCP bridge,
 * the `mcpServers` table).
 */
export interface PluginServices {
  logger: Logger;
  config: Readonly<Record<string, unknown>>;
  paths: PluginPaths;
  lifecycle: PluginLifecycle;
  events: PluginEvents;
}
export type PluginServiceName = keyof PluginServices;

export interface PluginContext<R extends PluginServiceName = never> {
  readonly pluginId: string;
  /** Returns an unregister function; may also be called after `register` returns. */
  registerTool(tool: Tool): () => void;
  registerReducer(reducer: ToolResultReducer): () => void;
  registerHook(hook: ToolHook): () => void;
  registerBackend(backend: CapabilityBackend): () => void;
  readonly services: Pick<PluginServices, R>;
}

export interface PluginDefinition<R extends PluginServiceName = PluginServiceName> {
  /** Stable id, used in personality `plugins` lists. `[a-z0-9][a-z0-9._-]*`. */
  id: string;
  apiVersion: PluginApiVersion;
  version: string;
  description?: string;
  requires?: readonly R[];
  /** Other plugin ids this plugin needs loaded first. */
  dependsOn?: readonly string[];
  register(ctx: PluginContext<R>): void | Promise<void>;
}

/** Declares a plugin; `ctx.services` is typed from `requires`. Registers nothing by itself. */
export function definePlugin<const R extends PluginServiceName = never>(
  plugin: PluginDefinition<R>,
): PluginDefinition<R> {
  return plugin;
}
