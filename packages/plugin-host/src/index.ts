// Public surface of @quiver/plugin-host.
export { QuiverHost } from './host.js';
export type { BackendFactoryContext, BuiltinPlugin, CreateHostOptions, PluginStatus } from './host.js';
export { DefaultCapabilityBackendRegistry } from './backend-registry.js';
export { PluginCatalog } from './plugins/plugin-catalog.js';
export type { FailedPluginInfo, LoadedPluginInfo } from './plugins/plugin-catalog.js';
export { PLUGIN_SERVICE_NAMES, validatePackageManifest, validatePluginDefinition } from './plugins/plugin-manifest.js';
export { resolvePluginReference } from './plugins/plugin-resolver.js';
export type { ResolvedPlugin } from './plugins/plugin-resolver.js';
export { quiverConfigSchema } from './config/config-schema.js';
export type { QuiverConfig, QuiverConfigInput } from './config/config-schema.js';
export { CONFIG_FILE_NAMES, findConfigFile, loadConfigFile, parseConfig } from './config/load-config.js';
export { didYouMean, formatZodIssues } from './config/format-issues.js';
export { validateScopes } from './scopes.js';
export type { ServiceDescriptor } from './scopes.js';
export { TOKENS, TOKEN_SCOPES, createToken } from './tokens.js';
export type { HostOptions, ServiceScope, Token } from './tokens.js';
export { createMemoryLogger, createStderrLogger } from './logger.js';
export type { LogLevel } from './logger.js';
export {
  PERSONALITY_DEFAULTS,
  describePersonalitySchema,
  loadPersonalityFile,
  personalitySchema,
  resolvePersonality,
  toSessionPolicy,
} from './personality/index.js';
export type { Personality, PersonalityFile, PersonalityKeyDescription, PersonalitySearchOptions } from './personality/index.js';
