import type { DefaultToolResultReducerRegistry, InMemorySessionState } from '@quiver/core';
import type {
  DefaultHookRegistry,
  HookRegistry,
  PersonalityPermissionEngine,
  Session,
  SessionDeps,
  SessionOptions,
  SessionPolicy,
  SqliteSessionEventLog,
} from '@quiver/runtime';
import type {
  CapabilityBackendRegistry,
  EventBus,
  Logger,
  ToolRegistry,
  ToolResultReducerRegistry,
} from '@quiver/types';
import type { DefaultCapabilityBackendRegistry } from './backend-registry.js';
import type { Personality } from './personality/index.js';
import type { PluginCatalog } from './plugins/plugin-catalog.js';
import type { HostOptions } from './resolved-host-options.js';
import type { SessionCallExecutors } from './services/session-call-executors.js';

export type { HostOptions } from './resolved-host-options.js';

/** A DI token that carries the type of what it resolves to. */
export type Token<T> = symbol & { readonly __type?: T };

export function createToken<T>(description: string): Token<T> {
  return Symbol(description) as Token<T>;
}

export type ServiceScope = 'root' | 'personality' | 'session';

/** Every service the host wires, with its scope. */
export const TOKENS = {
  // root: one per host
  hostOptions: createToken<HostOptions>('HostOptions'),
  logger: createToken<Logger>('Logger'),
  toolRegistry: createToken<ToolRegistry>('ToolRegistry'),
  reducerRegistry: createToken<DefaultToolResultReducerRegistry>('ToolResultReducerRegistry'),
  hookRegistry: createToken<DefaultHookRegistry>('HookRegistry'),
  backendRegistry: createToken<DefaultCapabilityBackendRegistry>('CapabilityBackendRegistry'),
  eventBus: createToken<EventBus>('EventBus'),
  sessionEventLog: createToken<SqliteSessionEventLog>('SessionEventLog'),
  pluginCatalog: createToken<PluginCatalog>('PluginCatalog'),
  // personality: one per personality, shared by its sessions
  personality: createToken<Personality>('Personality'),
  sessionPolicy: createToken<SessionPolicy>('SessionPolicy'),
  permissionEngine: createToken<PersonalityPermissionEngine>('PermissionEngine'),
  personalityHooks: createToken<HookRegistry>('PersonalityHooks'),
  personalityReducers: createToken<ToolResultReducerRegistry>('PersonalityReducers'),
  personalityBackends: createToken<CapabilityBackendRegistry>('PersonalityBackends'),
  sessionDeps: createToken<SessionDeps>('SessionDeps'),
  // session: one per session
  sessionOptions: createToken<SessionOptions>('SessionOptions'),
  sessionState: createToken<InMemorySessionState>('SessionState'),
  callExecutors: createToken<SessionCallExecutors>('CallExecutors'),
  session: createToken<Session>('Session'),
} as const;

const SCOPES: Record<ServiceScope, readonly (keyof typeof TOKENS)[]> = {
  root: [
    'hostOptions',
    'logger',
    'toolRegistry',
    'reducerRegistry',
    'hookRegistry',
    'backendRegistry',
    'eventBus',
    'sessionEventLog',
    'pluginCatalog',
  ],
  personality: [
    'personality',
    'sessionPolicy',
    'permissionEngine',
    'personalityHooks',
    'personalityReducers',
    'personalityBackends',
    'sessionDeps',
  ],
  session: ['sessionOptions', 'sessionState', 'callExecutors', 'session'],
};

export const TOKEN_SCOPES: ReadonlyMap<symbol, ServiceScope> = new Map(
  (Object.entries(SCOPES) as [ServiceScope, (keyof typeof TOKENS)[]][]).flatMap(([scope, names]) =>
    names.map((name) => [TOKENS[name], scope] as const),
  ),
);
