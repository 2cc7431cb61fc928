// Public surface of @quiver/plugin-host.

// tsyringe's decorators need the Reflect metadata API as soon as the host's classes load.
import 'reflect-metadata';

export { DefaultCapabilityBackendRegistry } from './backend-registry.js';
export type { QuiverConfig, QuiverConfigInput } from './config/config-schema.js';
export { quiverConfigSchema } from './config/config-schema.js';
export { didYouMean, formatZodIssues } from './config/format-issues.js';
export {
  CONFIG_FILE_NAMES,
  configKeyLocation,
  findConfigFile,
  loadConfigFile,
  parseConfig,
} from './config/load-config.js';
export type { DroppedListItem, UnmatchedRemoval } from './config/merge-layers.js';
export type {
  PersonSettings,
  PersonSettingsLayer,
  SettingsFile,
  SettingsScope,
} from './config/settings-layers.js';
export {
  checkPersonSettingsRules,
  LOCAL_CONFIG_FILE_NAME,
  localConfigFile,
  managedSettingsFile,
  personSettingsSchema,
  readPersonSettings,
  readSettingsFile,
  SETTINGS_SCOPES,
  settingsFiles,
  userSettingsFile,
} from './config/settings-layers.js';
export { isSubdirectoryConfiguration, workspaceRoot } from './config/workspace-root.js';
export { QuiverHost } from './host.js';
export type {
  BackendFactoryContext,
  BuiltinPlugin,
  CreateHostOptions,
  PluginConfigContext,
  PluginStatus,
} from './host-options.js';
export type { LogLevel } from './logger.js';
export { createMemoryLogger, createStderrLogger } from './logger.js';
export type {
  CheckToolNamesOptions,
  Personality,
  PersonalityFile,
  PersonalityInheritance,
  PersonalityKeyDescription,
  PersonalityNameIssue,
  PersonalitySearchOptions,
} from './personality/index.js';
export {
  checkPersonalityToolNames,
  describePersonalitySchema,
  loadPersonalityFile,
  PERSONALITY_DEFAULTS,
  personalitySchema,
  registeredToolKinds,
  resolvePersonality,
  resolvePersonalityInheritance,
  toSessionPolicy,
} from './personality/index.js';
export { explainMissingTool } from './plugins/failed-plugin-tools.js';
export type { OnDemandPlugin } from './plugins/on-demand-plugin.js';
export type { FailedPluginInfo, LoadedPluginInfo } from './plugins/plugin-catalog.js';
export { PluginCatalog } from './plugins/plugin-catalog.js';
export type { PluginSettingDescription } from './plugins/plugin-config.js';
export { pluginSearchLocations } from './plugins/plugin-locations.js';
export {
  PLUGIN_SERVICE_NAMES,
  validatePackageManifest,
  validatePluginDefinition,
} from './plugins/plugin-manifest.js';
export type { ResolvedPlugin } from './plugins/plugin-resolver.js';
export { resolvePluginReference } from './plugins/plugin-resolver.js';
export type { UnloadedPlugin } from './plugins/unloaded-plugin.js';
export type { ServiceDescriptor } from './scopes.js';
export { validateScopes } from './scopes.js';
export { checkPostgresStores } from './storage/check-stores.js';
export { openProjectTrust } from './storage/open-project.js';
export type {
  PostgresBackend,
  PostgresBackendLoader,
  PostgresStoreStatus,
  ReplicaMembership,
  SharedDatabase,
  SharedDatabaseRequest,
} from './storage/postgres-backend.js';
export type { ServeSessionRecord } from './storage/serve-session-records.js';
export { SERVE_SESSION_MIGRATIONS, ServeSessionRecords } from './storage/serve-session-records.js';
export type { SharedStorage } from './storage/shared-storage.js';
export type { StorageConfig } from './storage/storage-config.js';
export { environmentVariableOf } from './storage/storage-config.js';
export type { HostOptions, ServiceScope, Token } from './tokens.js';
export { createToken, TOKEN_SCOPES, TOKENS } from './tokens.js';
export type { CodePin, CodePins } from './trust/code-pins.js';
export { pinnedFileCount, pinProjectCode, pinTrustedCode } from './trust/code-pins.js';
export { CodeTrust } from './trust/code-trust.js';
export type { ConfigurationComparison } from './trust/compare-configurations.js';
export { compareConfigurations, narrowPersonality } from './trust/compare-configurations.js';
export type { ConfigurationChange } from './trust/configuration-change.js';
export { describeProjectConfiguration } from './trust/describe-configuration.js';
export type { FilePin, FilePins } from './trust/file-pins.js';
export type {
  InspectProjectOptions,
  LocatedProject,
  ProjectInspection,
  ProjectTrustOptions,
  TrustedLaunch,
} from './trust/inspect-project.js';
export { inspectProject, locateProject } from './trust/inspect-project.js';
export type {
  McpToolPin,
  McpToolPinEntry,
  McpToolPinFile,
  McpToolPinStore,
} from './trust/mcp-tool-pins.js';
export {
  approveMcpToolDefinition,
  mcpToolPinsPath,
  openMcpToolPins,
  readMcpToolPins,
} from './trust/mcp-tool-pins.js';
export type {
  PersonalitySettings,
  ProjectConfiguration,
  ReadProjectConfigurationOptions,
} from './trust/project-configuration.js';
export {
  baselineConfiguration,
  personalityKey,
  readProjectConfiguration,
} from './trust/project-configuration.js';
export type { EvaluateProjectTrustOptions, ProjectTrust, ProjectTrustState } from './trust/project-trust.js';
export { describeProjectTrust, evaluateProjectTrust } from './trust/project-trust.js';
export type { SharedTrustStorageOptions } from './trust/shared-trust-storage.js';
export { SharedTrustStorage, TRUST_MIGRATIONS } from './trust/shared-trust-storage.js';
export type { McpToolDefinitionApproval, TrustStorage } from './trust/trust-storage.js';
export { fileTrustStorage } from './trust/trust-storage.js';
export type { TrustRecord } from './trust/trust-store.js';
export {
  fingerprintConfiguration,
  readTrustRecord,
  trustDirectory,
  trustRecordPath,
  writeTrustRecord,
} from './trust/trust-store.js';
export { trustedWorkspaceFiles } from './trust/trusted-workspace-files.js';
export type { TrustedWorkspaceFilesOptions } from './trust/workspace-file-pins.js';
export { TrustedWorkspaceFiles } from './trust/workspace-file-pins.js';
