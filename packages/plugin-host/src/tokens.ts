import type { HookRegistry, SessionOptions, SessionPolicy } from '@quiver/runtime';
import type {
  CapabilityBackendRegistry,
  EventBus,
  Logger,
  ToolRegistry,
  ToolResultReducerRegistry,
} from '@quiver/types';
import type { QuiverConfig } from './config/config-schema.js';
import type { Personality } from './personality/index.js';

/** A DI token that carries the type of what it resolves to. */
export type Token<T> = symbol & { readonly __type?: T };

export function createToken<T>(description: string): Token<T> {
  return Symbol(description) as Token<T>;
}

export type ServiceScope = 'root' | 'personality' | 'session';

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
  /** What a plugin receives as its `config` service; default `config.pluginConfig[id]`. */
  pluginConfig(pluginId: string): Record<string, unknown>;
}

/** Every service the host wires, with its scope. */
export const TOKENS = {
  hostOptions: createToken<HostOptions>('HostOptions'),
  logger: createToken<Logger>('Logger'),
  toolRegistry: createToken<ToolRegistry>('ToolRegistry'),
  reducerRegistry: createToken<ToolResultReducerRegistry>('ToolResultReducerRegistry'),
  hookRegistry: createToken<HookRegistry>('HookRegistry'),
  backendRegistry: createToken<CapabilityBackendRegistry>('CapabilityBackendRegistry'),
  eventBus: createToken<EventBus>('EventBus'),
  pluginCatalog: createToken<import('./plugins/plugin-catalog.js').PluginCatalog>('PluginCatalog'),
  personality: createToken<Personality>('Personality'),
  sessionPolicy: createToken<SessionPolicy>('SessionPolicy'),
  sessionOptions: createToken<SessionOptions>('SessionOptions'),
} as const;

export const TOKEN_SCOPES: ReadonlyMap<symbol, ServiceScope> = new Map<symbol, ServiceScope>([
  [TOKENS.hostOptions, 'root'],
  [TOKENS.logger, 'root'],
  [TOKENS.toolRegistry, 'root'],
  [TOKENS.reducerRegistry, 'root'],
  [TOKENS.hookRegistry, 'root'],
  [TOKENS.backendRegistry, 'root'],
  [TOKENS.eventBus, 'root'],
  [TOKENS.pluginCatalog, 'root'],
  [TOKENS.personality, 'personality'],
  [TOKENS.sessionPolicy, 'personality'],
  [TOKENS.sessionOptions, 'session'],
]);
