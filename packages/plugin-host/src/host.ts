import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DefaultToolResultReducerRegistry } from '@quiver/core';
import type {
  DefaultHookRegistry,
  Session,
  SessionOptions,
  SessionPolicy,
  SqliteSessionEventLog,
} from '@quiver/runtime';
import { type EventBus, isQuiverError, QuiverError, type ToolRegistry } from '@quiver/types';
import { type DependencyContainer, container as globalContainer } from 'tsyringe';
import type { DefaultCapabilityBackendRegistry } from './backend-registry.js';
import { addPaths, configurationPaths, pluginLocation } from './config/configuration-paths.js';
import { readPersonSettings, withPersonSettings } from './config/settings-layers.js';
import type { CreateHostOptions, PluginConfigContext, PluginStatus } from './host-options.js';
import { type HostProtectedPath, protectedPathsOf } from './host-protected-paths.js';
import { createStderrLogger } from './logger.js';
import { type Personality, registeredToolKinds, resolvePersonality } from './personality/index.js';
import type { PluginCatalog } from './plugins/plugin-catalog.js';
import { resolvePluginReference } from './plugins/plugin-resolver.js';
import { settleOnDemandPlugins } from './plugins/settle-on-demand-plugins.js';
import { startingPersonality } from './plugins/starting-personality.js';
import { registerScope, type ServiceDescriptor, validateScopes } from './scopes.js';
import { PERSONALITY_SERVICES } from './services/personality-services.js';
import { ROOT_SERVICES } from './services/root-services.js';
import { SESSION_SERVICES } from './services/session-services.js';
import { openProject } from './storage/open-project.js';
import { type HostOptions, type ServiceScope, TOKEN_SCOPES, TOKENS } from './tokens.js';
import { isPersonsPersonality } from './trust/persons-personality.js';
import { type ProjectTrust, trustedPersonality } from './trust/project-trust.js';
import type { TrustStorage } from './trust/trust-storage.js';
import { trustDirectory } from './trust/trust-store.js';

/** What a personality's sessions are built from: only the enabled plugins' hooks, reducers and backends. */
interface PersonalityScope {
  personality: Personality;
  container: DependencyContainer;
  dispose(): Promise<void>;
}

type ScopedServices = Record<ServiceScope, ServiceDescriptor[]>;

/** The plugin host: owns the root container, loads plugins, and creates gated sessions. */
export class QuiverHost {
  readonly #personalities = new Map<string, PersonalityScope>();
  readonly #sessions = new Set<Session>();
  readonly #sessionContainers = new WeakMap<Session, DependencyContainer>();
  #closed = false;

  private constructor(
    readonly container: DependencyContainer,
    private readonly services: ScopedServices,
    private readonly disposeRoot: () => Promise<void>,
    readonly options: HostOptions,
    private readonly embedded: Record<string, unknown>,
    /** How the project configuration stands against what a person trusted; undefined = not checked. */
    readonly trust: ProjectTrust | undefined,
    private readonly sessionPersonality: string,
  ) {}

  static async create(options: CreateHostOptions = {}): Promise<QuiverHost> {
    const logger = options.logger ?? createStderrLogger();
    const project = await openProject(options, logger);
    const { configFile, configDir, found, searchDirs, trust, personalityFiles, sharedStorage } = project;
    // A host on PostgreSQL keeps nothing in SQLite: its driver is loaded only for a host on SQLite.
    const sqlite =
      typeof options.sqlite === 'function'
        ? sharedStorage
          ? undefined
          : await options.sqlite()
        : options.sqlite;
    // The person's and the machine's settings are theirs: they apply over what trust allows of the project.
    const config = withPersonSettings(project.config, readPersonSettings(options.trust?.env ?? process.env));
    const { trustStorage, hostWorkspace: workspace, codeTrust, filePins } = project;
    const embedded = options.embeddedPersonalities ?? {};
    const dataDir = path.resolve(workspace, options.dataDir ?? config.dataDir);
    mkdirSync(dataDir, { recursive: true });
    options.trustStorageOpened?.(trustStorage);
    const sources = options.pluginConfigSources ?? {};
    const sessionPersonality = options.personality ?? config.defaultPersonality;
    const builtins = await settleOnDemandPlugins(options.builtinPlugins ?? [], config);
    const unloadedPlugins = [...(options.unloadedPlugins ?? []), ...builtins.leftOut];
    let host: QuiverHost | undefined;
    // Read without building the personality's scope: plugins are still registering backends.
    const startPersonality = startingPersonality(sessionPersonality, {
      searchDirs: configDir === workspace ? [configDir] : [configDir, workspace],
      embedded,
      trust,
    });
    const context: PluginConfigContext = { personality: startPersonality };
    const hostOptions: HostOptions = {
      workspace,
      dataDir,
      configDir,
      config,
      pluginConfig: (pluginId, personality = startPersonality()) =>
        sources[pluginId]?.(config, context) ?? {
          ...config.pluginConfig[pluginId],
          ...personality?.pluginConfig[pluginId],
        },
      loadedConfigurationPaths: [],
      ...(options.profiles ? { profiles: options.profiles } : {}),
      ...(sharedStorage ? { sharedStorage } : {}),
      ...(sqlite ? { sqlite } : {}),
      ...(options.sessionLogWriter ? { sessionLogWriter: options.sessionLogWriter } : {}),
      ...(unloadedPlugins.length > 0 ? { unloadedPlugins } : {}),
      trustStorage,
      ...(codeTrust ? { codeTrust } : {}),
      filePins,
    };
    const pluginLocations: string[] = [];

    const services = scopedServices(options.services ?? []);

    // A child of tsyringe's global container that nothing registers into: every registration stays here.
    const root = globalContainer.createChildContainer();
    root.register(TOKENS.hostOptions, { useValue: hostOptions });
    root.register(TOKENS.logger, { useValue: logger });
    const disposeRoot = registerScope(root, services.root);

    host = new QuiverHost(root, services, disposeRoot, hostOptions, embedded, trust, sessionPersonality);
    const backends = host.backends;
    const hostBackends = options.backends?.({
      workspace,
      dataDir,
      personality: (id) => host.#personalityById(id),
      protectedPaths: () => host.protectedPaths,
    });
    // The embedder's own list: a later entry for a capability replaces an earlier one (a test
    // host overriding a default); only plugins' backends compete, per personality.
    // Shared PostgreSQL storage replaces the embedder's SQLite storage for every tool.
    const embedderBackends = [
      ...(hostBackends ?? []),
      ...(sharedStorage ? [sharedStorage.storageBackend] : []),
    ];
    for (const backend of new Map(embedderBackends.map((entry) => [entry.capability, entry])).values()) {
      backends.register(backend);
    }
    const catalog = host.catalog;
    for (const builtin of builtins.load) await catalog.load(builtin.definition, builtin.source);
    for (const ref of config.plugins) {
      try {
        // Nothing is imported that differs from what a person's trust pinned.
        codeTrust?.checkPlugin(ref);
        const resolved = await resolvePluginReference(ref, [...new Set([configDir, workspace])]);
        const location = pluginLocation(resolved.source);
        if (location) pluginLocations.push(location);
        await catalog.load(resolved.definition, resolved.source);
      } catch (error) {
        // By name too: a plugin's own copy of @quiver/types throws its own QuiverError class.
        const quiverError = isQuiverError(error) ? error : undefined;
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
    addPaths(
      hostOptions.loadedConfigurationPaths,
      configurationPaths({
        configFile,
        configDir,
        dataDir,
        config: found,
        searchDirs,
        personalityFiles,
        pluginLocations,
        trustDirectory: trust ? trustDirectory(options.trust?.env) : undefined,
      }),
    );
    return host;
  }

  get registry(): ToolRegistry {
    return this.container.resolve(TOKENS.toolRegistry);
  }
  get reducers(): DefaultToolResultReducerRegistry {
    return this.container.resolve(TOKENS.reducerRegistry);
  }
  get hooks(): DefaultHookRegistry {
    return this.container.resolve(TOKENS.hookRegistry);
  }
  get backends(): DefaultCapabilityBackendRegistry {
    return this.container.resolve(TOKENS.backendRegistry);
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
  /**
   * Every file and directory loaded as configuration or code (quiver.yaml, personality files and
   * directories, plugin paths, files the config points at, the data and trust directories).
   */
  get loadedConfigurationPaths(): string[] {
    return [...this.options.loadedConfigurationPaths];
  }

  /** What no tool may write, whatever the rules say: the permission engine's `protectedPaths`. */
  get protectedPaths(): HostProtectedPath[] {
    return protectedPathsOf(this.options);
  }

  /**
   * Refuses to start a stdio MCP server whose executable, script or imported files differ from
   * what trust pinned (throws `code_pin_changed` naming the file); asked before every start and
   * restart. Nothing to check when the configuration is not a project file.
   */
  checkMcpServer(name: string, config: Readonly<Record<string, unknown>>): void {
    this.options.codeTrust?.checkServer(name, config);
  }

  /** Where the trust record and the pinned MCP tool definitions are kept (files, or PostgreSQL). */
  get trustStorage(): TrustStorage {
    return this.options.trustStorage;
  }

  /** The durable session log (`sessions.db` in the data dir), opened on first use. */
  get eventLog(): SqliteSessionEventLog {
    return this.container.resolve(TOKENS.sessionEventLog);
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
    const endScope = registerScope(sessionContainer, this.services.session);
    const session = sessionContainer.resolve<Session>(TOKENS.session);
    this.#sessionContainers.set(session, sessionContainer);
    this.#sessions.add(session);
    const close = session.close.bind(session);
    session.close = async () => {
      this.#sessions.delete(session);
      try {
        await close();
      } finally {
        // The session's own services (its log writer) end after the session has.
        await endScope();
      }
    };
    return session;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#sessions].map((session) => session.close()));
    await this.catalog.shutdown();
    for (const scope of this.#personalities.values()) await scope.dispose();
    await this.disposeRoot();
    await this.options.sharedStorage?.close();
    await this.options.trustStorage.close();
  }

  /**
   * The container of a session's scope: it resolves the session's services, and through its
   * parents its personality's and the host's.
   */
  containerOf(session: Session): DependencyContainer {
    const container = this.#sessionContainers.get(session);
    if (!container)
      throw new QuiverError('usage', `Session ${session.id} was not created by this host.`, {
        fix: "Pass a session returned by this host's createSession().",
      });
    return container;
  }

  #searchDirs(): string[] {
    const { configDir, workspace } = this.options;
    return configDir === workspace ? [configDir] : [configDir, workspace];
  }

  #personalityScope(nameOrPath?: string): PersonalityScope {
    const key = nameOrPath ?? this.sessionPersonality;
    const cached = this.#personalities.get(key);
    if (cached) return cached;
    const personality = this.#trusted(
      key,
      resolvePersonality(key, {
        searchDirs: this.#searchDirs(),
        embedded: this.embedded,
        toolKinds: registeredToolKinds(this.registry),
      }),
    );
    this.catalog.settleSettings(personality);
    const container = this.container.createChildContainer();
    container.register(TOKENS.personality, { useValue: personality });
    const scope = { personality, container, dispose: registerScope(container, this.services.personality) };
    // Built now, so that two backends for one capability fail where the personality is first used.
    container.resolve(TOKENS.personalityBackends);
    this.#personalities.set(key, scope);
    return scope;
  }

  /** The personality with only what trust allows; its files join the protected configuration. */
  #trusted(reference: string, found: Personality): Personality {
    addPaths(
      this.options.loadedConfigurationPaths,
      found.sources.filter((source) => !source.startsWith('embedded:')),
    );
    if (
      isPersonsPersonality(reference, found, {
        workspace: this.options.workspace,
        dataDir: this.options.dataDir,
      })
    )
      return found;
    return this.trust ? trustedPersonality(this.trust, reference, found) : found;
  }

  #personalityById(id: string): Personality | undefined {
    for (const { personality } of this.#personalities.values()) if (personality.id === id) return personality;
    return undefined;
  }
}

/** The host's services and the embedder's, by scope, checked for scope violations. */
function scopedServices(extra: readonly ServiceDescriptor[]): ScopedServices {
  const all = [...ROOT_SERVICES, ...PERSONALITY_SERVICES, ...SESSION_SERVICES, ...extra];
  const scopes = new Map(TOKEN_SCOPES);
  for (const service of extra) scopes.set(service.token, service.scope);
  validateScopes(all, scopes);
  return {
    root: all.filter((service) => service.scope === 'root'),
    personality: all.filter((service) => service.scope === 'personality'),
    session: all.filter((service) => service.scope === 'session'),
  };
}
