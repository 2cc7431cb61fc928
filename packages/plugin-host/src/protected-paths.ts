import path from 'node:path';
import { CONFIG_FILE_NAMES } from './config/load-config.js';
import type { HostOptions } from './tokens.js';

export interface HostProtectedPath {
  path: string;
  reason: string;
}

const CONFIGURATION = 'Quiver loads this file as configuration';

/**
 * What the permission engine write-denies to every tool: each path Quiver loaded as
 * configuration or code, its data directory, and a quiver.yaml that does not exist yet in the
 * workspace or config directory (the next run would load it).
 */
export function protectedPathsOf(options: HostOptions): HostProtectedPath[] {
  const dataDir = path.resolve(options.dataDir);
  const loaded = options.loadedConfigurationPaths ?? [];
  const wouldLoad = [...new Set([options.workspace, options.configDir])].flatMap((directory) =>
    CONFIG_FILE_NAMES.map((name) => path.join(directory, name)),
  );
  const entries = new Map<string, string>();
  entries.set(dataDir, 'Quiver keeps its data and saved grants here');
  for (const entry of [...loaded, ...wouldLoad]) {
    const absolute = path.resolve(entry);
    if (!entries.has(absolute)) entries.set(absolute, CONFIGURATION);
  }
  return [...entries].map(([entry, reason]) => ({ path: entry, reason }));
}
