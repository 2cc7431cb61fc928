import type { DefaultToolResultReducerRegistry } from '@quiver/core';
import { type DefaultHookRegistry, PersonalityPermissionEngine, type SessionDeps } from '@quiver/runtime';
import type { Logger, ToolRegistry } from '@quiver/types';
import { inject, injectable } from 'tsyringe';
import type { DefaultCapabilityBackendRegistry } from '../backend-registry.js';
import { protectedPathsOf } from '../host-protected-paths.js';
import { type Personality, toSessionPolicy } from '../personality/index.js';
import type { PluginCatalog } from '../plugins/plugin-catalog.js';
import type { ServiceDescriptor } from '../scopes.js';
import { type HostOptions, TOKENS } from '../tokens.js';

/** The personality's permission engine: its sessions share one connection to the project grants. */
@injectable()
export class HostPermissionEngine extends PersonalityPermissionEngine {
  constructor(
    @inject(TOKENS.hostOptions) options: HostOptions,
    @inject(TOKENS.toolRegistry) registry: ToolRegistry,
    @inject(TOKENS.logger) logger: Logger,
  ) {
    super({
      warn: (message) => logger.warn(message),
      workspace: options.workspace,
      dataDir: options.dataDir,
      registry,
      ...(options.sharedStorage ? { projectGrants: options.sharedStorage.projectGrants } : {}),
      ...(options.sqlite ? { sqlite: options.sqlite } : {}),
      // The workspace files a person pinned: an allowed program reading one that changed asks.
      ...(options.filePins ? { filePins: options.filePins } : {}),
      // Read at each session: a personality resolved later adds files to protect.
      get protectedPaths() {
        return protectedPathsOf(options);
      },
    });
  }
}

/**
 * Built once per personality from the root services: only the plugins the personality enables
 * contribute hooks, reducers and backends; a loaded but disabled plugin contributes nothing.
 */
export const PERSONALITY_SERVICES: readonly ServiceDescriptor[] = [
  {
    token: TOKENS.sessionPolicy,
    scope: 'personality',
    inject: [TOKENS.personality],
    useFactory: toSessionPolicy,
  },
  {
    token: TOKENS.personalityHooks,
    scope: 'personality',
    inject: [TOKENS.hookRegistry, TOKENS.personality],
    useFactory: (hooks: DefaultHookRegistry, personality: Personality) =>
      hooks.forPlugins(personality.plugins),
  },
  {
    token: TOKENS.personalityReducers,
    scope: 'personality',
    inject: [TOKENS.reducerRegistry, TOKENS.personality],
    useFactory: (reducers: DefaultToolResultReducerRegistry, personality: Personality) =>
      reducers.forPlugins(personality.plugins),
  },
  {
    token: TOKENS.personalityBackends,
    scope: 'personality',
    inject: [TOKENS.backendRegistry, TOKENS.personality],
    useFactory: (backends: DefaultCapabilityBackendRegistry, personality: Personality) =>
      backends.forPersonality({
        personalityId: personality.id,
        plugins: personality.plugins,
        chosen: personality.backends ?? {},
      }),
  },
  {
    token: TOKENS.permissionEngine,
    scope: 'personality',
    useClass: HostPermissionEngine,
    dispose: (engine: HostPermissionEngine) => engine.close(),
  } satisfies ServiceDescriptor<HostPermissionEngine>,
  {
    token: TOKENS.sessionDeps,
    scope: 'personality',
    inject: [
      TOKENS.hostOptions,
      TOKENS.toolRegistry,
      TOKENS.personalityReducers,
      TOKENS.personalityBackends,
      TOKENS.personalityHooks,
      TOKENS.sessionPolicy,
      TOKENS.eventBus,
      TOKENS.sessionEventLog,
      TOKENS.permissionEngine,
      TOKENS.pluginCatalog,
      TOKENS.personality,
    ],
    useFactory: (
      options: HostOptions,
      registry: SessionDeps['registry'],
      reducers: SessionDeps['reducers'],
      backends: SessionDeps['backends'],
      hooks: SessionDeps['hooks'],
      policy: SessionDeps['policy'],
      events: SessionDeps['events'],
      eventLog: SessionDeps['eventLog'],
      permissionEngine: SessionDeps['permissionEngine'],
      catalog: PluginCatalog,
      personality: Personality,
    ): SessionDeps => ({
      registry,
      reducers,
      backends,
      hooks,
      policy,
      workspace: options.workspace,
      dataDir: options.dataDir,
      ...(events ? { events } : {}),
      // Replicas share the PostgreSQL log; the SQLite one stays for a single host.
      ...(options.sharedStorage
        ? { eventLog: options.sharedStorage.eventLog }
        : eventLog
          ? { eventLog }
          : {}),
      ...(permissionEngine ? { permissionEngine } : {}),
      ...(options.profiles ? { profiles: options.profiles } : {}),
      // MCP servers start on a personality's first use, never for a personality nobody uses.
      demand: (servers) => {
        const enabled = Object.keys(personality.mcpServers);
        const mcpServers = servers === undefined ? enabled : servers.filter((name) => enabled.includes(name));
        return catalog.demand({ personality: personality.id, mcpServers });
      },
      get protectedPaths() {
        return protectedPathsOf(options);
      },
      ...(options.filePins ? { filePins: options.filePins } : {}),
    }),
  },
];
