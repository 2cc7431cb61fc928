import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { QuiverConfig } from './config-schema.js';

export interface ConfigurationPathsInput {
  configFile: string | undefined;
  configDir: string;
  dataDir: string;
  config: QuiverConfig;
  /** Directories searched for `personalities/`. */
  searchDirs: readonly string[];
  /** Personality files found (resolved through `extends`). */
  personalityFiles: readonly string[];
  /** Where the config's plugins were loaded from. */
  pluginLocations: readonly string[];
  /** Where trust records live, when trust is checked. */
  trustDirectory?: string | undefined;
}

function isFile(candidate: string): boolean {
  try {
    return existsSync(candidate) && statSync(candidate).isFile();
  } catch {
    return false;
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/**
 * Files a config setting points at (a server script, a file of plugin settings): any string of
 * `mcpServers` or `pluginConfig` that names an existing file, relative to the config directory.
 */
function referencedFiles(config: QuiverConfig, configDir: string): string[] {
  const candidates = strings([config.mcpServers, config.pluginConfig]).filter(
    (value) => value.length > 0 && value.length < 4096 && !value.includes('\n'),
  );
  return candidates.map((value) => path.resolve(configDir, value)).filter(isFile);
}

/** Where a resolved plugin lives: a path source, or the directory in `name (dir)`. */
export function pluginLocation(source: string): string | undefined {
  if (path.isAbsolute(source)) return source;
  const directory = /\(([^()]+)\)$/.exec(source)?.[1];
  return directory && path.isAbsolute(directory) ? directory : undefined;
}

/**
 * Every file and directory Quiver loaded (or would load) as configuration or code: quiver.yaml,
 * the personality directories and files, plugin paths, files the config points at, the data
 * directory and the trust records. Tools must not write any of them.
 */
export function configurationPaths(input: ConfigurationPathsInput): string[] {
  const paths = [
    ...(input.configFile ? [input.configFile] : []),
    ...input.searchDirs.map((directory) => path.join(directory, 'personalities')),
    ...input.personalityFiles,
    ...input.pluginLocations,
    ...referencedFiles(input.config, input.configDir),
    input.dataDir,
    ...(input.trustDirectory ? [input.trustDirectory] : []),
  ];
  return [...new Set(paths.map((entry) => path.resolve(entry)))];
}

/** Appends the paths `list` does not hold yet (the list is shared with the permission engine). */
export function addPaths(list: string[], paths: readonly string[]): void {
  for (const entry of paths) if (!list.includes(entry)) list.push(entry);
}
