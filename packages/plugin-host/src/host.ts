import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '@quiver/core';
import {
  createSession,
  DefaultHookRegistry,
  InMemoryEventBus,
  type ModelProfile,
  type Session,
  type SessionOptions,
  type SessionPolicy,
  SqliteSessionEventLog,
} from '@quiver/runtime';
import {
  type CapabilityBackend,
  type EventBus,
  type Logger,
  type PluginDefinition,
  QuiverError,
  type ToolRegistry,
  type ToolResultReducerRegistry,
} from '@quiver/types';
import { type DependencyContainer, container as globalContainer } from 'tsyringe';
import { DefaultCapabilityBackendRegistry } from './backend-registry.js';
import type { QuiverConfig, QuiverConfigInput } from './config/config-schema.js';
import { loadConfigFile, parseConfig } from './config/load-config.js';
import { createStderrLogger } from './logger.js';
import { type Personality, resolvePersonality, toSessionPolicy } from './personality/index.js';
import { type FailedPluginInfo, type LoadedPluginInfo, PluginCatalog } from './plugins/plugin-catalog.js';
import { resolvePluginReference } from './plugins/plugin-resolver.js';
import { type ServiceDescriptor, validateScopes } from './scopes.js';
import { type HostOptions, TOKEN_SCOPES, TOKENS } from './tokens.js';

export interface BuiltinPlugin {
  definition: PluginDefinition<any>;
  source: string;
}

export interface BackendFactoryContext {
  workspace: string;
  dataDir: string;
  /** The resolved personality of a session, by id (for per-personality grants such as secrets). */
  personality(id: string): Personality | undefined;
}

export interface CreateHostOptions {
  /** Directory the config file lives in (relative paths resolve from it); default the workspace. */
  configDir?: string;
  config?: QuiverConfigInput;
  configPath?: string;
  /** Workspace root; default from the config (relative to the config dir), else cwd. */
  workspace?: string;
  dataDir?: string;
  /** Plugins always present in the catalog (first-party extensions), loaded before config plugins. */
  builtinPlugins?: BuiltinPlugin[];
  backends?: (context: BackendFactoryContext) => CapabilityBackend[];
  /** Personalities available by name without a file (e.g. the embedded default). */
  embeddedPersonalities?: Record<string, unknown>;
  profiles?: ModelProfile[];
  logger?: Logger;
  /** Where a plugin's `config` service comes from, by plugin id (default: `pluginConfig.<id>`). */
  pluginConfigSources?: Record<string, (config: QuiverConfig) => Record<string, unknown>>;
  /** Extra services checked for scope violations at startup. */
  services?: ServiceDescriptor[];
}

export interface PluginStatus {
  loaded: LoadedPluginInfo[];
  failed: FailedPluginInfo[];
}

const ROOT_SERVICES: ServiceDescriptor[] = [
  { token: TOKENS.pluginCatalog, scope: 'root', useClass: PluginCatalog },
];

/** The plugin host: owns the root container, loads plugins, and creates gated sessions. */
export class QuiverHost {
  readonly #personalities = new Map<string, { personality: Personality; container: DependencyContainer }>();
  readonly #sessions = new Set<Session>();
  #eventLog: SqliteSessionEventLog | undefined;
  #closed = false;

  private constructor(
    readonly container: DependencyContainer,
    readonly options: HostOptions,
    private readonly embedded: Record<string, unknown>,
    private readonly profiles: ModelProfile[] | undefined,
  ) {}

  static async create(options: CreateHostOptions = {}): Promise<QuiverHost> {
    const configDir = path.resolve(
      options.configDir ??
        (options.configPath ? path.dirname(options.configPath) : (options.workspace ?? process.cwd())),
    );
    const config: QuiverConfig = options.configPath
      ? loadConfigFile(path.resolve(options.configPath))
      : parseConfig(options.config ?? {}, 'config');
    const workspace = path.resolve(options.workspace ?? path.resolve(configDir, config.workspace));
    const dataDir = path.resolve(workspace, options.dataDir ?? config.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const sources = options.pluginConfigSources ?? {};
    const hostOptions: HostOptions = {
      workspace,
      dataDir,
      configDir,
      config,
      pluginConfig: (pluginId) => sources[pluginId]?.(config) ?? config.pluginConfig[pluginId] ?? {},
    };

    validateScopes([...ROOT_SERVICES, ...(options.services ?? [])], TOKEN_SCOPES);

    // A child of tsyringe's global container that nothing registers into: every registration stays here.
    const root = globalContainer.createChildContainer();
    const reducers = new DefaultToolResultReducerRegistry();
    const backends = new DefaultCapabilityBackendRegistry();
    root.register(TOKENS.hostOptions, { useValue: hostOptions });
    root.register(TOKENS.logger, { useValue: options.logger ?? createStderrLogger() });
    root.register(TOKENS.reducerRegistry, { useValue: reducers });
    root.register(TOKENS.toolRegistry, { useValue: new DefaultToolRegistry({ reducers }) });
    root.register(TOKENS.hookRegistry, { useValue: new DefaultHookRegistry() });
    root.register(TOKENS.backendRegistry, { useValue: backends });
    root.register(TOKENS.eventBus, { useValue: new InMemoryEventBus() });
    root.registerSingleton(TOKENS.pluginCatalog, PluginCatalog);

    const host = new QuiverHost(root, hostOptions, options.embeddedPersonalities ?? {}, options.profiles);
    for (const backend of options.backends?.({
      workspace,
      dataDir,
      personality: (id) => host.#personalityById(id),
    }) ?? []) {
      backends.register(backend);
    }
    const catalog = host.catalog;
    for (const builtin of options.builtinPlugins ?? [])
      await catalog.load(builtin.definition, builtin.source);
    for (const ref of config.plugins) {
      try {
        const resolved = await resolvePluginReference(ref, [...new Set([configDir, workspace])]);
        await catalog.load(resolved.definition, resolved.source);
      } catch (error) {
        const quiverError = error instanceof QuiverError ? error : undefined;
        const pluginId = quiverError?.details.plugin;
        catalog.recordFailure({
          plugin: typeof pluginId === 'string' ? pluginId : ref,
          source: ref,
          code: quiverError?.code ?? 'plugin_bad_manifest',
          message: (error as Error).message,
          ...(quiverError?.fix ? { fix: quiverError.fix } : {}),
        });
      }
    }
    return host;
  }

  get registry(): ToolRegistry {
    return this.container.resolve(TOKENS.toolRegistry);
  }
  get reducers(): ToolResultReducerRegistry {
    return this.container.resolve(TOKENS.reducerRegistry);
  }
  get hooks(): DefaultHookRegistry {
    return this.container.resolve(TOKENS.hookRegistry) as DefaultHookRegistry;
  }
  get backends(): DefaultCapabilityBackendRegistry {
    return this.container.resolve(TOKENS.backendRegistry) as DefaultCapabilityBackendRegistry;
  }
  get events(): EventBus {
    return this.container.resolve(TOKENS.eventBus);
  }
  get catalog(): PluginCatalog {
    return this.container.resolve(TOKENS.pluginCatalog);
  }
  get workspace(): string {
    return this.options.workspace;
  }
  get dataDir(): string {
    return this.options.dataDir;
  }

  /** The durable session log (`sessions.db` in the data dir), opened on first use. */
  get eventLog(): SqliteSessionEventLog {
    this.#eventLog ??= new SqliteSessionEventLog({ dataDir: this.options.dataDir });
    return this.#eventLog;
  }

  plugins(): PluginStatus {
    return { loaded: this.catalog.loaded(), failed: this.catalog.failed() };
  }

  /** The personality (after `extends`), by name or path; the config's default when omitted. */
  personality(nameOrPath?: string): Personality {
    return this.#personalityScope(nameOrPath).personality;
  }

  policy(nameOrPath?: string): SessionPolicy {
    return this.#personalityScope(nameOrPath).container.resolve(TOKENS.sessionPolicy);
  }

  /** A session under a personality; its pool and executions are gated by that personality only. */
  createSession(options: SessionOptions = {}): Session {
    if (this.#closed) throw new QuiverError('internal', 'The host is closed.', { fix: 'Create a new host.' });
    const scope = this.#personalityScope(options.personality);
    const sessionContainer = scope.container.createChildContainer();
    sessionContainer.register(TOKENS.sessionOptions, { useValue: options });
    const session = createSession(
      {
        registry: this.registry,
        reducers: this.reducers,
        backends: this.backends,
        hooks: this.hooks,
        policy: scope.container.resolve(TOKENS.sessionPolicy),
        workspace: this.options.workspace,
        dataDir: this.options.dataDir,
        events: this.events,
        eventLog: this.eventLog,
        ...(this.profiles ? { profiles: this.profiles } : {}),
      },
      sessionContainer.resolve(TOKENS.sessionOptions),
    );
    this.#sessions.add(session);
    const close = session.close.bind(session);
    session.close = async () => {
      this.#sessions.delete(session);
      await close();
    };
    return session;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#sessions].map((session) => session.close()));
    await this.catalog.shutdown();
    this.#eventLog?.close();
  }

  #searchDirs(): string[] {
    const { configDir, workspace } = this.options;
    return configDir === workspace ? [configDir] : [configDir, workspace];
  }

  #personalityScope(nameOrPath?: string) {
    const key = nameOrPath ?? this.options.config.defaultPersonality;
    const cached = this.#personalities.get(key);
    if (cached) return cached;
    const personality = resolvePersonality(key, { searchDirs: this.#searchDirs(), embedded: this.embedded });
    const container = this.container.createChildContainer();
    container.register(TOKENS.personality, { useValue: personality });
    container.register(TOKENS.sessionPolicy, { useValue: toSessionPolicy(personality) });
    const scope = { personality, container };
    this.#personalities.set(key, scope);
    return scope;
  }

  #personalityById(id: string): Personality | undefined {
    for (const { personality } of this.#personalities.values()) if (personality.id === id) return personality;
    return undefined;
  }
}
