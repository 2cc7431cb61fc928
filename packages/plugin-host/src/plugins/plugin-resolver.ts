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

function looksLikePath(ref: string): boolean {
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

function locate(ref: string, baseDirs: readonly string[]): { entry: string; source: string } {
  if (looksLikePath(ref)) {
    for (const base of baseDirs) {
      const target = path.resolve(base, ref);
      if (!existsSync(target)) continue;
      const entry = statSync(target).isDirectory() ? entryFromPackageDir(target) : target;
      return { entry, source: target };
    }
    throw new QuiverError(
      'plugin_not_found',
      `Plugin path "${ref}" does not exist (looked in ${baseDirs.join(', ')}).`,
      {
        fix: 'Correct the path in quiver.yaml `plugins`; relative paths resolve from the config file directory.',
      },
    );
  }
  for (const base of baseDirs) {
    const dir = installedPackageDir(ref, base);
    if (dir !== undefined) return { entry: entryFromPackageDir(dir), source: `${ref} (${dir})` };
  }
  throw new QuiverError(
    'plugin_not_found',
    `Plugin package "${ref}" is not installed (looked from ${baseDirs.join(', ')}).`,
    {
      fix: `Install it next to quiver.yaml (npm install ${ref}) or name it by path.`,
    },
  );
}

/**
 * The directory of an installed package, by the node_modules directories Node's resolution walks
 * from `base`. Not `require.resolve('<name>/package.json')`: a package whose `exports` leave out
 * package.json is still installed.
 */
function installedPackageDir(ref: string, base: string): string | undefined {
  const require = createRequire(path.join(base, 'package.json'));
  for (const modules of require.resolve.paths(ref) ?? []) {
    const candidate = path.join(modules, ref);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
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
