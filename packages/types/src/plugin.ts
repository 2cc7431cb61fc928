import type { z } from 'zod';
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
  /**
   * The MCP servers needed now (keys of the configuration's `mcpServers` table): every one the
   * personality enables when a session lists its tools, or only those of the tools a call names.
   */
  mcpServers: readonly string[];
}

export interface PluginLifecycle {
  /** Runs when the host shuts down (close connections, stop processes). */
  onShutdown(fn: () => void | Promise<void>): void;
  /**
   * Runs whenever a session needs what plugins start lazily: when it first lists its tools, waits
   * to be ready, or calls a tool of something not started yet. Called again for the same things;
   * start each once. Resolve when each named server has connected or failed (callers that only
   * want it started do not wait); never reject, report failures as events.
   */
  onDemand(fn: (demand: PersonalityDemand) => void | Promise<void>): void;
}

/** Lets a plugin tell sessions that its tools changed (beyond register/unregister). */
export interface PluginEvents {
  publish(event: QuiverEvent): void;
}

/** A plugin's settings when it declares no `config` schema. */
export type PluginConfigRecord = Readonly<Record<string, unknown>>;

/**
 * Services a plugin may ask for in `requires`. It receives exactly those, nothing else.
 * `config` is the plugin's own section (`pluginConfig.<id>` in quiver.yaml, overlaid by the
 * personality's `plugins: [{ id, config }]` entry; for the MCP bridge, the `mcpServers` table),
 * parsed by the plugin's `config` schema when it declares one. While one of the plugin's tools
 * runs it shows the settings of the calling session's personality: read it in `execute`, not
 * once in `register`, to follow them.
 */
export interface PluginServices<C = PluginConfigRecord> {
  logger: Logger;
  config: Readonly<C>;
  paths: PluginPaths;
  lifecycle: PluginLifecycle;
  events: PluginEvents;
}
export type PluginServiceName = keyof PluginServices;

export interface PluginContext<R extends PluginServiceName = never, C = PluginConfigRecord> {
  readonly pluginId: string;
  /** Returns an unregister function; may also be called after `register` returns. */
  registerTool(tool: Tool): () => void;
  registerReducer(reducer: ToolResultReducer): () => void;
  registerHook(hook: ToolHook): () => void;
  registerBackend(backend: CapabilityBackend): () => void;
  readonly services: Pick<PluginServices<C>, R>;
}

export interface PluginDefinition<R extends PluginServiceName = PluginServiceName, C = PluginConfigRecord> {
  /** Stable id, used in personality `plugins` lists. `[a-z0-9][a-z0-9._-]*`. */
  id: string;
  apiVersion: PluginApiVersion;
  version: string;
  description?: string;
  requires?: readonly R[];
  /** Other plugin ids this plugin needs loaded first. */
  dependsOn?: readonly string[];
  /**
   * Schema of the plugin's settings: the host parses them with it before `register` runs and
   * refuses to load the plugin when they do not match, with the schema's messages.
   * `ctx.services.config` is its output. Its descriptions document the settings.
   */
  config?: z.ZodType<C, any>;
  register(ctx: PluginContext<R, C>): void | Promise<void>;
}

/**
 * Declares a plugin; `ctx.services` is typed from `requires`, and `ctx.services.config` from
 * the `config` schema. Registers nothing by itself.
 */
export function definePlugin<const R extends PluginServiceName = never, C = PluginConfigRecord>(
  plugin: PluginDefinition<R, C>,
): PluginDefinition<R, C> {
  return plugin;
}
