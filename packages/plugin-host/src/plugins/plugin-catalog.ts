import type { HookRegistry } from '@quiver/runtime';
import {
  type CapabilityBackend,
  type EventBus,
  isQuiverError,
  type Logger,
  type PersonalityDemand,
  type PluginContext,
  type PluginDefinition,
  type PluginServiceName,
  type PluginServices,
  QuiverError,
  type Tool,
  type ToolHook,
  type ToolRegistry,
  type ToolResultReducer,
  type ToolResultReducerRegistry,
} from '@quiver/types';
import type { DefaultCapabilityBackendRegistry } from '../backend-registry.js';
import type { Personality } from '../personality/index.js';
import type { HostOptions } from '../resolved-host-options.js';
import { duplicateToolError } from './duplicate-tool-error.js';
import { PersonalityPluginSettings } from './personality-plugin-settings.js';
import { describePluginSettings, type PluginSettingDescription, parsePluginConfig } from './plugin-config.js';
import { validatePluginDefinition } from './plugin-manifest.js';
import type { UnloadedPlugin } from './unloaded-plugin.js';

export interface LoadedPluginInfo {
  id: string;
  version: string;
  description?: string;
  source: string;
  tools: string[];
  /** The keys its `config` schema declares; absent when it declares none. */
  settings?: PluginSettingDescription[];
}

export interface FailedPluginInfo {
  /** The plugin id when known, else the reference from the config. */
  plugin: string;
  source: string;
  code: string;
  message: string;
  fix?: string;
  /** Tools it registered before it failed (none when it failed before `register`). */
  tools: string[];
}

interface LoadedPlugin {
  definition: PluginDefinition<any, any>;
  source: string;
  disposers: Array<() => void>;
  /** Every tool name it asked to register, kept to name the plugin when a call asks for one. */
  attemptedTools: string[];
  config: Readonly<Record<string, unknown>>;
}

/**
 * Loads plugins into the root registries, tracks what each registered, and unloads them. The root
 * scope builds it from the services its constructor lists, in that order (`ROOT_SERVICES`).
 */
export class PluginCatalog {
  readonly #loaded = new Map<string, LoadedPlugin>();
  readonly #failed: FailedPluginInfo[] = [];
  readonly #shutdown: Array<() => void | Promise<void>> = [];
  readonly #demand: Array<{ pluginId: string; fn: (demand: PersonalityDemand) => void | Promise<void> }> = [];
  readonly #settings = new PersonalityPluginSettings();
  /** Built-in plugins left out of this process, by id: they count as loaded for dependencies and clashes. */
  readonly #unloaded: ReadonlyMap<string, UnloadedPlugin>;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly reducers: ToolResultReducerRegistry,
    private readonly hooks: HookRegistry,
    private readonly backends: DefaultCapabilityBackendRegistry,
    private readonly events: EventBus,
    private readonly logger: Logger,
    private readonly options: HostOptions,
  ) {
    this.#unloaded = new Map((options.unloadedPlugins ?? []).map((plugin) => [plugin.pluginId, plugin]));
  }

  #unloadedTool(name: string): { pluginId: string } | undefined {
    for (const plugin of this.#unloaded.values())
      if (plugin.tools.some((tool) => tool.name === name)) return plugin;
    return undefined;
  }

  /** Where each plugin comes from, the ones left out included, for a clash's message. */
  #owners(): ReadonlyMap<string, { source: string }> {
    if (this.#unloaded.size === 0) return this.#loaded;
    return new Map<string, { source: string }>([...this.#unloaded, ...this.#loaded]);
  }

  /** Loads one plugin. A failure is recorded (and returned), never thrown: the other plugins still load. */
  async load(candidate: unknown, source: string): Promise<FailedPluginInfo | undefined> {
    let definition: PluginDefinition<any, any> | undefined;
    const entry: LoadedPlugin = {
      definition: undefined as never,
      source,
      disposers: [],
      attemptedTools: [],
      config: {},
    };
    try {
      definition = validatePluginDefinition(candidate, source);
      entry.definition = definition;
      const twice = this.#loaded.get(definition.id) ?? this.#unloaded.get(definition.id);
      if (twice) {
        throw new QuiverError(
          'plugin_duplicate_tool',
          `Plugin "${definition.id}" is loaded twice (${twice.source} and ${source}).`,
          { fix: 'Remove one of the two entries from quiver.yaml `plugins`.' },
        );
      }
      const missing = (definition.dependsOn ?? []).filter(
        (id) => !this.#loaded.has(id) && !this.#unloaded.has(id),
      );
      if (missing.length > 0) {
        throw new QuiverError(
          'plugin_missing_dependency',
          `Plugin "${definition.id}" depends on plugin${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not loaded.`,
          {
            fix: `Add ${missing.join(', ')} to quiver.yaml \`plugins\` before "${definition.id}".`,
            details: { plugin: definition.id, missing },
          },
        );
      }
      entry.config = Object.freeze({
        ...parsePluginConfig(definition, this.options.pluginConfig(definition.id)),
      });
      // Registered before register() runs so that tools it adds later (MCP reconnects) are tracked too.
      this.#loaded.set(definition.id, entry);
      await definition.register(this.#contextFor(definition, entry));
      this.logger.debug(`plugin ${definition.id} loaded`, { source });
      return undefined;
    } catch (error) {
      this.#unwind(entry);
      if (definition && this.#loaded.get(definition.id) === entry) this.#loaded.delete(definition.id);
      const failure = { ...this.#describeFailure(error, definition, source), tools: entry.attemptedTools };
      this.#failed.push(failure);
      this.logger.warn(`plugin ${failure.plugin} disabled: ${failure.message}`, { code: failure.code });
      return failure;
    }
  }

  /** Removes every tool, reducer, hook and backend the plugin registered. */
  unload(pluginId: string): boolean {
    const entry = this.#loaded.get(pluginId);
    if (!entry) return false;
    this.#unwind(entry);
    this.#loaded.delete(pluginId);
    for (let index = this.#demand.length - 1; index >= 0; index--)
      if (this.#demand[index]?.pluginId === pluginId) this.#demand.splice(index, 1);
    return true;
  }

  loaded(): LoadedPluginInfo[] {
    const tools = this.registry.list();
    return [...this.#loaded.values()].map(({ definition, source }) => {
      const settings = describePluginSettings(definition);
      return {
        id: definition.id,
        version: definition.version,
        ...(definition.description ? { description: definition.description } : {}),
        source,
        tools: tools
          .filter((entry) => entry.pluginId === definition.id)
          .map((entry) => entry.tool.name)
          .sort(),
        ...(settings ? { settings } : {}),
      };
    });
  }

  failed(): FailedPluginInfo[] {
    return [...this.#failed];
  }

  /** A plugin that failed before it loaded (not found, refused for a changed pin): kept and said at launch. */
  recordFailure(failure: Omit<FailedPluginInfo, 'tools'> & { tools?: string[] }): void {
    this.#failed.push({ ...failure, tools: failure.tools ?? [] });
    this.logger.warn(
      `plugin ${failure.plugin} not loaded: ${failure.message}${failure.fix ? ` ${failure.fix}` : ''}`,
      { code: failure.code },
    );
  }

  has(pluginId: string): boolean {
    return this.#loaded.has(pluginId);
  }

  /**
   * Parses the settings a personality gives loaded plugins, for its sessions' calls; throws
   * `config_invalid` naming the personality file and key when they do not match a plugin's schema.
   */
  settleSettings(personality: Personality): void {
    this.#settings.settle(
      personality,
      [...this.#loaded.values()].map(({ definition }) => ({
        definition,
        raw: (of?: Personality) => this.options.pluginConfig(definition.id, of),
      })),
    );
  }

  /** Tells the plugins what a personality's sessions need started; resolves when it is ready. */
  async demand(demand: PersonalityDemand): Promise<void> {
    if (this.#demand.length === 0) return;
    await Promise.all(
      this.#demand.map(async ({ pluginId, fn }) => {
        try {
          await fn(demand);
        } catch (error) {
          this.logger.warn(`plugin ${pluginId} failed to start what it needs: ${(error as Error).message}`);
        }
      }),
    );
  }

  async shutdown(): Promise<void> {
    for (const fn of this.#shutdown.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        this.logger.warn(`shutdown hook failed: ${(error as Error).message}`);
      }
    }
    for (const id of [...this.#loaded.keys()].reverse()) this.unload(id);
  }

  #unwind(entry: LoadedPlugin): void {
    for (const dispose of entry.disposers.splice(0).reverse()) {
      try {
        dispose();
      } catch {
        // Unregistering something already gone is fine.
      }
    }
  }

  #describeFailure(
    error: unknown,
    definition: PluginDefinition<any, any> | undefined,
    source: string,
  ): Omit<FailedPluginInfo, 'tools'> {
    const plugin = definition?.id ?? source;
    if (isQuiverError(error)) {
      return {
        plugin,
        source,
        code: error.code,
        message: error.message,
        ...(error.fix ? { fix: error.fix } : {}),
      };
    }
    return {
      plugin,
      source,
      code: 'plugin_register_failed',
      message: `Plugin "${plugin}" threw during register(): ${(error as Error)?.message ?? String(error)}. It was disabled; all other plugins loaded.`,
      fix: `Fix the plugin or remove it from quiver.yaml \`plugins\`; run \`quiver plugins\` to see its status.`,
    };
  }

  #contextFor(definition: PluginDefinition<any, any>, entry: LoadedPlugin): PluginContext<PluginServiceName> {
    const track = (dispose: () => void) => {
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        dispose();
        const index = entry.disposers.indexOf(once);
        if (index >= 0) entry.disposers.splice(index, 1);
      };
      entry.disposers.push(once);
      return once;
    };
    const all = this.#services(definition, entry.config);
    const services = Object.fromEntries(
      (definition.requires ?? []).map((name: PluginServiceName) => [name, all[name]]),
    );
    return {
      pluginId: definition.id,
      services: services as unknown as PluginServices,
      registerTool: (tool: Tool) => {
        entry.attemptedTools.push(tool.name);
        const existing = this.registry.get(tool.name) ?? this.#unloadedTool(tool.name);
        if (existing) throw duplicateToolError(tool.name, definition, existing.pluginId, this.#owners());
        const registered = definition.requires?.includes('config')
          ? this.#settings.bind(tool, definition.id)
          : tool;
        return track(this.registry.register(registered, { pluginId: definition.id }));
      },
      registerReducer: (reducer: ToolResultReducer) =>
        track(this.reducers.register(reducer, { pluginId: definition.id })),
      registerHook: (hook: ToolHook) => track(this.hooks.register(hook, definition.id)),
      registerBackend: (backend: CapabilityBackend) => track(this.backends.register(backend, definition.id)),
    };
  }

  #services(
    definition: PluginDefinition<any, any>,
    config: Readonly<Record<string, unknown>>,
  ): PluginServices {
    const prefix = `[${definition.id}]`;
    return {
      logger: {
        debug: (message, data) => this.logger.debug(`${prefix} ${message}`, data),
        info: (message, data) => this.logger.info(`${prefix} ${message}`, data),
        warn: (message, data) => this.logger.warn(`${prefix} ${message}`, data),
        error: (message, data) => this.logger.error(`${prefix} ${message}`, data),
      },
      config: this.#settings.view(definition.id, config),
      paths: {
        workspace: this.options.workspace,
        dataDir: this.options.dataDir,
        configDir: this.options.configDir,
      },
      lifecycle: {
        onShutdown: (fn) => void this.#shutdown.push(fn),
        onDemand: (fn) => void this.#demand.push({ pluginId: definition.id, fn }),
      },
      events: { publish: (event) => this.events.publish(event) },
    };
  }
}
