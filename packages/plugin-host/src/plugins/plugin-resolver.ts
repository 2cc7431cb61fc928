import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type PluginDefinition, QuiverError } from '@quiver/types';
import { validatePackageManifest, validatePluginDefinition } from './plugin-manifest.js';

export interface ResolvedPlugin {
  definition: PluginDefinition;
  /** Where it came from: a package name with its directory, or a path. */
  source: string;
}

export function looksLikePath(ref: string): boolean {
  return ref.startsWith('.') || ref.startsWith('/') || (ref.includes(path.sep) && !ref.startsWith('@'));
}

function entryFromPackageDir(dir: string): string {
  const packageJsonPath = path.join(dir, 'package.json');
  let packageJson: { quiver?: unknown };
  try {
    packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { quiver?: unknown };
  } catch (error) {
    throw new QuiverError(
      'plugin_bad_manifest',
      `${packageJsonPath} could not be read as JSON: ${(error as Error).message}.`,
      {
        fix: 'Fix the package.json of the plugin.',
        cause: error,
      },
    );
  }
  const manifest = validatePackageManifest(packageJson.quiver, packageJsonPath);
  return path.resolve(dir, manifest.plugin);
}

/**
 * Every place Node would look for the plugin `ref`, in order: for a path, the path from each base
 * directory; for a package name, `<node_modules>/<name>` along Node's search from each base.
 */
export function pluginCandidates(ref: string, baseDirs: readonly string[]): string[] {
  if (looksLikePath(ref)) return baseDirs.map((base) => path.resolve(base, ref));
  return baseDirs.flatMap((base) => packageCandidates(ref, base));
}

/** `<node_modules>/<name>` for every node_modules directory Node's resolution walks from `base`. */
export function packageCandidates(name: string, base: string): string[] {
  const require = createRequire(path.join(base, 'package.json'));
  return (require.resolve.paths(name) ?? []).map((modules) => path.join(modules, name));
}

/** The file Node checks to decide that a candidate of `ref` exists. */
export function candidateMarker(ref: string, candidate: string): string {
  return looksLikePath(ref) ? candidate : path.join(candidate, 'package.json');
}

/**
 * Where `ref` resolves: the first candidate that exists (a package directory whose package.json
 * exists: a package whose `exports` leave out package.json is still installed).
 */
export function findPlugin(ref: string, baseDirs: readonly string[]): string | undefined {
  return pluginCandidates(ref, baseDirs).find((candidate) => existsSync(candidateMarker(ref, candidate)));
}

function locate(ref: string, baseDirs: readonly string[]): { entry: string; source: string } {
  const found = findPlugin(ref, baseDirs);
  if (looksLikePath(ref)) {
    if (found !== undefined) {
      const entry = statSync(found).isDirectory() ? entryFromPackageDir(found) : found;
      return { entry, source: found };
    }
    throw new QuiverError(
      'plugin_not_found',
      `Plugin path "${ref}" does not exist (looked in ${baseDirs.join(', ')}).`,
      {
        fix: 'Correct the path in quiver.yaml `plugins`; relative paths resolve from the config file directory.',
      },
    );
  }
  if (found !== undefined) return { entry: entryFromPackageDir(found), source: `${ref} (${found})` };
  throw new QuiverError(
    'plugin_not_found',
    `Plugin package "${ref}" is not installed (looked from ${baseDirs.join(', ')}).`,
    {
      fix: `Install it next to quiver.yaml (npm install ${ref}) or name it by path.`,
    },
  );
}

/** Resolves a plugin named by package name or path and validates what it exports. */
export async function resolvePluginReference(
  ref: string,
  baseDirs: readonly string[],
): Promise<ResolvedPlugin> {
  const { entry, source } = locate(ref, baseDirs);
  if (!existsSync(entry)) {
    throw new QuiverError('plugin_bad_manifest', `Plugin entry ${entry} (from ${source}) does not exist.`, {
      fix: 'Build the plugin, or point package.json#quiver.plugin at an existing file.',
    });
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    throw new QuiverError(
      'plugin_bad_manifest',
      `Plugin entry ${entry} failed to import: ${(error as Error).message}`,
      {
        fix: 'Check that the plugin is built and its dependencies are installed.',
        cause: error,
      },
    );
  }
  const exported = module.default ?? module.plugin;
  return { definition: validatePluginDefinition(exported, source), source };
}
