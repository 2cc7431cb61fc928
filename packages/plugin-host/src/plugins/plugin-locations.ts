import path from 'node:path';
import { pluginCandidates } from './plugin-resolver.js';

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Every place inside the workspace where Node's resolution would look for the plugins `plugins`
 * names, from `baseDirs` (the config directory, then the workspace): `node_modules/<name>` in the
 * base directories and each of their ancestors inside the workspace, or the path of a plugin
 * named by path. A package created in one of them would be loaded in place of (or as) the
 * trusted plugin, so no tool may write there.
 */
export function pluginSearchLocations(
  plugins: readonly string[],
  baseDirs: readonly string[],
  workspace: string,
): string[] {
  const root = path.resolve(workspace);
  const locations = new Set<string>();
  for (const ref of plugins)
    for (const candidate of pluginCandidates(ref, baseDirs))
      if (isInside(candidate, root)) locations.add(candidate);
  return [...locations];
}
