import { DefaultToolRegistry, DefaultToolResultReducerRegistry } from '@quiver/core';
import { DefaultHookRegistry, InMemoryEventBus, SqliteSessionEventLog } from '@quiver/runtime';
import type { UnloadedTool } from '@quiver/types';
import { inject, injectable } from 'tsyringe';
import { DefaultCapabilityBackendRegistry } from '../backend-registry.js';
import { PluginCatalog } from '../plugins/plugin-catalog.js';
import type { ServiceDescriptor } from '../scopes.js';
import { type HostOptions, TOKENS } from '../tokens.js';

/**
 * The registry every plugin's tools join; results are reduced by the root reducer registry. It also
 * lists the declared tools of the built-in plugins left out of this process.
 */
@injectable()
export class HostToolRegistry extends DefaultToolRegistry {
  readonly #unloaded: readonly UnloadedTool[];

  constructor(
    @inject(TOKENS.reducerRegistry) reducers: DefaultToolResultReducerRegistry,
    @inject(TOKENS.hostOptions) options: HostOptions,
  ) {
    super({ reducers });
    this.#unloaded = Object.freeze((options.unloadedPlugins ?? []).flatMap((plugin) => plugin.tools));
  }

  unloaded(): readonly UnloadedTool[] {
    return this.#unloaded;
  }
}

/** The durable session log, `sessions.db` in the data directory. */
@injectable()
export class HostSessionEventLog extends SqliteSessionEventLog {
  constructor(@inject(TOKENS.hostOptions) options: HostOptions) {
    super({
      dataDir: options.dataDir,
      ...(options.sqlite ? { sqlite: options.sqlite } : {}),
      ...(options.sessionLogWriter ? { writer: options.sessionLogWriter } : {}),
    });
  }
}

/** Built once per host; `hostOptions` and `logger` are registered as values by the host. */
export const ROOT_SERVICES: readonly ServiceDescriptor[] = [
  { token: TOKENS.reducerRegistry, scope: 'root', useClass: DefaultToolResultReducerRegistry },
  { token: TOKENS.toolRegistry, scope: 'root', useClass: HostToolRegistry },
  { token: TOKENS.hookRegistry, scope: 'root', useClass: DefaultHookRegistry },
  { token: TOKENS.backendRegistry, scope: 'root', useClass: DefaultCapabilityBackendRegistry },
  { token: TOKENS.eventBus, scope: 'root', useClass: InMemoryEventBus },
  {
    token: TOKENS.sessionEventLog,
    scope: 'root',
    useClass: HostSessionEventLog,
    dispose: (log: HostSessionEventLog) => log.close(),
  } satisfies ServiceDescriptor<HostSessionEventLog>,
  {
    token: TOKENS.pluginCatalog,
    scope: 'root',
    inject: [
      TOKENS.toolRegistry,
      TOKENS.reducerRegistry,
      TOKENS.hookRegistry,
      TOKENS.backendRegistry,
      TOKENS.eventBus,
      TOKENS.logger,
      TOKENS.hostOptions,
    ],
    useFactory: (...dependencies: ConstructorParameters<typeof PluginCatalog>) =>
      new PluginCatalog(...dependencies),
  },
];
