import path from 'node:path';
import { type ProtectedPath, protectedPathList } from '@quiver/permissions';
import { CONFIG_FILE_NAMES } from './config/load-config.js';
import { pluginSearchLocations } from './plugins/plugin-locations.js';
import type { HostOptions } from './tokens.js';

export type HostProtectedPath = ProtectedPath & { reason: string };

const CONFIGURATION = 'Quiver loads this file as configuration';

/**
 * The protected-path list (`@quiver/permissions`' `protectedPathList`) for this host: every path
 * Quiver loaded as configuration or code, its data directory, a quiver.yaml that does not exist
 * yet in the workspace or config directory (the next run would load it), and every
 * `node_modules/<name>` location Node would search for a trusted plugin. The permission engine
 * write-denies it to every tool; the terminal's sandbox mounts it read-only.
 */
export function protectedPathsOf(options: HostOptions): HostProtectedPath[] {
  const wouldLoad = [...new Set([options.workspace, options.configDir])].flatMap((directory) =>
    CONFIG_FILE_NAMES.map((name) => path.join(directory, name)),
  );
  const entries = protectedPathList({
    dataDir: options.dataDir,
    loaded: [...(options.loadedConfigurationPaths ?? []), ...wouldLoad],
  });
  const pluginDirs = [...new Set([options.configDir, options.workspace])];
  for (const entry of pluginSearchLocations(options.config.plugins, pluginDirs, options.workspace))
    entries.push({
      path: entry,
      reason: 'Node would load a trusted plugin from here: a package written here would run in Quiver',
      literal: true,
    });
  const seen = new Set<string>();
  return entries
    .filter((entry) => !seen.has(entry.path) && seen.add(entry.path) !== undefined)
    .map((entry) => ({ ...entry, reason: entry.reason ?? CONFIGURATION }));
}
