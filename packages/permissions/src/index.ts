// Public surface of @quiver/permissions.

export { createBlanketDenyCheck } from './blanket-deny.js';
export { checkPermissionRule } from './check-rule.js';
export type { CommandSpecifier, StringSpecifier } from './command-rule.js';
export {
  matchesCommandPrefix,
  matchesStringSpecifier,
  normalizeCommandText,
  parseCommandSpecifier,
  parseStringSpecifier,
} from './command-rule.js';
export type { ShellSubjectDecision } from './decide-shell.js';
export { fileFingerprint, InMemoryFilePins } from './file-fingerprint.js';
export { SessionGrantStore } from './grant-stores.js';
export type { PathSpecifier } from './path-specifier.js';
export { parsePathSpecifier } from './path-specifier.js';
export type { PermissionEngineOptions, PermissionRequest } from './permission-engine.js';
export { PermissionEngine } from './permission-engine.js';
export type { ProjectGrantStoreOptions } from './project-grant-store.js';
export { PROJECT_GRANT_MIGRATIONS, ProjectGrantStore, type SavedGrant } from './project-grant-store.js';
export type { ProjectGrants } from './project-grants.js';
export type { HostProtectedPathsInput, ProtectedPath } from './protected-paths.js';
export { consoleRuntimeDirectory, protectedPathList, WORKSPACE_PROTECTED_PATHS } from './protected-paths.js';
export type { ReadDenyMatcher, ReadDenyMatcherOptions } from './read-deny-matcher.js';
export { createReadDenyMatcher } from './read-deny-matcher.js';
export type { PermissionRule } from './rule.js';
export { parsePermissionRule, ruleMatchesToolName } from './rule.js';
export { analyzeShellCommand } from './shell/analyze-shell-command.js';
export type {
  ShellAnalysis,
  ShellCommandAnalysis,
  ShellRedirect,
  ShellUnprovenConstruct,
  ShellUnsafeConstruct,
} from './shell/shell-analysis.js';
export { headlessDenial } from './suggested-rule.js';
export type { TrustedFileState, WorkspaceFilePins } from './trusted-files.js';
export type { UrlSpecifier } from './url-rule.js';
export { matchesUrlSpecifier, parseUrlSpecifier } from './url-rule.js';
export { programConfigurationFiles } from './workspace-code.js';
export { normalizeWorkspacePath } from './workspace-path.js';
