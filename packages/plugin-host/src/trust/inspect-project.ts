import path from 'node:path';
import type { QuiverConfig, QuiverConfigInput } from '../config/config-schema.js';
import { loadConfigFile, parseConfig } from '../config/load-config.js';
import { resolvePersonality } from '../personality/index.js';
import { type CodePins, pinProjectCode } from './code-pins.js';
import { isPersonsPersonality, isPersonsPersonalityFile } from './persons-personality.js';
import { readPinCache, writePinCache } from './pin-cache.js';
import {
  baselineConfiguration,
  type ProjectConfiguration,
  readProjectConfiguration,
} from './project-configuration.js';
import { evaluateProjectTrust, type ProjectTrust } from './project-trust.js';
import type { TrustStorage } from './trust-storage.js';
import { trustedWorkspaceFiles } from './trusted-workspace-files.js';

/** What `--trust-project` trusted when the process started: reopening with it trusts exactly that. */
export interface TrustedLaunch {
  configuration: ProjectConfiguration;
  code: CodePins;
}

export interface ProjectTrustOptions {
  /**
   * Trusted for this process without a record: `true` trusts the configuration as found now
   * (`--trust-project`) and pins the code it starts; a configuration trusts exactly that one
   * (its code pinned now); a `TrustedLaunch` trusts that configuration and code (a reopen).
   */
  launch?: boolean | ProjectConfiguration | TrustedLaunch;
  /** Environment for the trust directory (XDG_DATA_HOME, HOME); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the trust record is read from; default the record file in the trust directory. */
  records?: Pick<TrustStorage, 'record' | 'recordLocation'> | undefined;
}

export interface InspectProjectOptions {
  configDir?: string;
  config?: QuiverConfigInput;
  configPath?: string;
  workspace?: string;
  embeddedPersonalities?: Record<string, unknown>;
  /** The personality sessions use by default: recorded with the others even when it is a path. */
  personality?: string;
  trust?: ProjectTrustOptions;
}

/** A project's configuration as found on disk, and how it stands against what a person trusted. */
export interface ProjectInspection {
  configFile: string | undefined;
  configDir: string;
  /** quiver.yaml as found (or the inline config), before trust narrows it. */
  found: QuiverConfig;
  /** Where trust records are keyed: the workspace the found config names. */
  workspace: string;
  searchDirs: string[];
  configuration: ProjectConfiguration;
  /** Personality files read. */
  personalityFiles: string[];
  /** The files each personality is read from (its `extends` chain), by the key trust records it under. */
  personalitySources: Record<string, string[]>;
  /** Personalities that did not resolve (they fail with their own message when used). */
  errors: Error[];
  /** Undefined when trust is not checked (no `trust` option). */
  trust: ProjectTrust | undefined;
}

/** The config as found (before trust narrows it) and the workspace trust is keyed by. */
export interface LocatedProject {
  configFile: string | undefined;
  configDir: string;
  found: QuiverConfig;
  workspace: string;
}

/** Reads quiver.yaml (or the inline config) only: where the project's state and trust are kept. */
export function locateProject(
  options: Pick<InspectProjectOptions, 'configDir' | 'config' | 'configPath' | 'workspace'>,
): LocatedProject {
  const configDir = path.resolve(
    options.configDir ??
      (options.configPath ? path.dirname(options.configPath) : (options.workspace ?? process.cwd())),
  );
  const configFile = options.configPath ? path.resolve(options.configPath) : undefined;
  const found = configFile ? loadConfigFile(configFile) : parseConfig(options.config ?? {}, 'config');
  const workspace = path.resolve(options.workspace ?? path.resolve(configDir, found.workspace));
  return { configFile, configDir, found, workspace };
}

/** True when the named file and every file its `extends` chain reads lie where no tool can write. */
function isPersonsOwn(
  reference: string,
  context: {
    searchDirs: readonly string[];
    embedded: Record<string, unknown>;
    writable: { workspace: string; dataDir: string };
  },
): boolean {
  if (!isPersonsPersonalityFile(reference, context.writable)) return false;
  try {
    const found = resolvePersonality(reference, {
      searchDirs: context.searchDirs,
      embedded: context.embedded,
    });
    return isPersonsPersonality(reference, found, context.writable);
  } catch {
    // It does not load: listed with the others, so that trust shows its error.
    return false;
  }
}

function isTrustedLaunch(launch: ProjectTrustOptions['launch']): launch is TrustedLaunch {
  return typeof launch === 'object' && 'configuration' in launch && 'code' in launch;
}

/** Reads the config and every personality it can select, and compares them with what is trusted. */
export function inspectProject(
  options: InspectProjectOptions,
  located: LocatedProject = locateProject(options),
): ProjectInspection {
  const { configFile, configDir, found, workspace } = located;
  const embedded = options.embeddedPersonalities ?? {};
  const searchDirs = [...new Set([configDir, workspace])];
  const snapshot = readProjectConfiguration({
    config: found,
    searchDirs,
    embedded,
    // A personality of the person's own (it and every file it extends outside anything a tool
    // can write) needs no trust; one that extends a workspace file is trusted with that file.
    references:
      options.personality &&
      !isPersonsOwn(options.personality, {
        searchDirs,
        embedded,
        writable: { workspace, dataDir: path.resolve(workspace, found.dataDir) },
      })
        ? [options.personality]
        : [],
  });
  const launch = options.trust?.launch;
  const launchConfiguration =
    launch === true
      ? snapshot.configuration
      : isTrustedLaunch(launch)
        ? launch.configuration
        : launch || undefined;
  const env = options.trust?.env;
  const pinAtLaunch = (configuration: ProjectConfiguration, recorded: CodePins | undefined): CodePins => {
    // Replicas sharing PostgreSQL keep no file of their own, not even this cache.
    const keepCache = found.storage.kind !== 'postgres';
    const cached = recorded ?? (keepCache ? readPinCache(workspace, env) : undefined);
    const code = pinProjectCode(configuration.config, {
      workspace,
      baseDirs: searchDirs,
      cache: cached,
      workspaceFiles: trustedWorkspaceFiles(workspace),
    });
    if (keepCache) writePinCache(workspace, code, cached, env);
    return code;
  };
  const trust =
    options.trust === undefined
      ? undefined
      : evaluateProjectTrust({
          workspace,
          current: snapshot.configuration,
          // An inline config is the embedder's own; a file is the project's.
          baseline: baselineConfiguration(embedded, configFile ? undefined : found),
          launch: launchConfiguration,
          launchCode: isTrustedLaunch(launch)
            ? launch.code
            : (recorded) => pinAtLaunch(launchConfiguration ?? snapshot.configuration, recorded),
          ...(options.trust.env ? { env: options.trust.env } : {}),
          ...(options.trust.records ? { records: options.trust.records } : {}),
        });
  return {
    configFile,
    configDir,
    found,
    workspace,
    searchDirs,
    configuration: snapshot.configuration,
    personalityFiles: snapshot.sources,
    personalitySources: snapshot.sourcesOf,
    errors: snapshot.errors,
    trust,
  };
}
