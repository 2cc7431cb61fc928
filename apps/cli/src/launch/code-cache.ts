import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/**
 * Node 20 has no compile cache for ES modules, and compiling the ~2 MB of JavaScript a cold
 * `quiver call` runs is a large part of its start. V8 can cache compiled code for a script given
 * as CommonJS-shaped source (`vm.Script` with `cachedData`), so the build also writes the code
 * `main.ts` reaches as one CommonJS bundle (`dist/cold/quiver.cjs`, scripts/bundle-cold-path.mjs);
 * `call` and `tools` run it with the code V8 compiled in an earlier run of the same command, kept
 * in the user's cache directory. See docs/security-model.md ("The code cache").
 */
const COMMANDS: ReadonlySet<string> = new Set(['call', 'tools']);

/** plugin-host's CONFIG_FILE_NAMES (not imported: the launcher loads nothing of the packages). */
const CONFIG_FILE_NAMES = ['quiver.yaml', 'quiver.yml'];

/** Written by scripts/bundle-cold-path.mjs beside the bundle. */
interface ColdManifest {
  /** sha256 of the bundle's text. */
  sha256: string;
  /** The CLI's version. */
  version: string;
  /** sha256 of the real path of the CLI's directory where the bundle was built. */
  builtIn: string;
  /** Packages whose files the bundle names by URL: name, version, and the package that depends on it (-1: the CLI). */
  packages: Array<{ name: string; version: string; parent: number }>;
  /** For each `import.meta.url` in the bundle: the package (index into packages, -1: the CLI) and the file's path in it. */
  urls: Array<[number, string]>;
  /** Files of this checkout the bundle was built from (path from the CLI's directory, size, mtime, sha256): checked only in that checkout. */
  inputs: Array<[string, number, number, string]>;
}

type Report = (outcome: string) => void;

/** Whether this command line runs from the bundle: `call` or `tools` (commandOf), unless QUIVER_CODE_CACHE=off. */
export function usesCodeCache(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return commandOf(argv) !== undefined && env.QUIVER_CODE_CACHE !== 'off';
}

/** `call` or `tools` when it is the first argument, or follows only `--trust-project`. */
function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[2] === '--trust-project' ? argv[3] : argv[2];
  return first !== undefined && COMMANDS.has(first) ? first : undefined;
}

/**
 * Runs the command from the bundle with V8's cached code, writing the cache after the command
 * when there was none or V8 rejected it. Returns false, having run nothing, when the bundle cannot
 * stand in for the modules (missing, built from other files, installed packages of other
 * versions): the caller then runs the ES modules. A cache that cannot be read or written only
 * costs the time it would have saved.
 */
export async function runFromCodeCache(argv: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const report: Report =
    env.QUIVER_CODE_CACHE_REPORT === '1'
      ? (outcome) => process.stderr.write(`quiver: code cache ${outcome}\n`)
      : () => {};
  const cliRoot = fileURLToPath(new URL('../../', import.meta.url));
  const bundlePath = path.join(cliRoot, 'dist', 'cold', 'quiver.cjs');
  let manifest: ColdManifest;
  let moduleUrls: Array<() => string>;
  let cacheFile: string | undefined;
  try {
    manifest = JSON.parse(
      readFileSync(path.join(cliRoot, 'dist', 'cold', 'manifest.json'), 'utf8'),
    ) as ColdManifest;
    const stale = staleInput(cliRoot, manifest);
    if (stale) {
      report(`not used (${stale} changed since the bundle was built)`);
      return false;
    }
    moduleUrls = locateUrls(cliRoot, manifest);
    cacheFile = cacheFilePath(env, manifest, bundlePath, commandOf(argv) as string);
    const writable = cacheFile && toolsMayWrite(path.dirname(cacheFile), argv);
    if (writable) {
      report(`not used (${writable})`);
      return false;
    }
  } catch (error) {
    report(`not used (${(error as Error).message})`);
    return false;
  }
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  let script: vm.Script;
  const module = { exports: {} as { main?: (argv: string[], beforeExit?: () => void) => Promise<void> } };
  try {
    script = new vm.Script(
      `(function (exports, require, module, __filename, __dirname, __quiverModuleUrl, __quiverImport) {${readFileSync(bundlePath, 'latin1')}\n})`,
      {
        filename: bundlePath,
        ...(cachedData ? { cachedData } : {}),
      },
    );
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(
      module.exports,
      module.exports,
      createRequire(bundlePath),
      module,
      bundlePath,
      path.dirname(bundlePath),
      (index: number) => (moduleUrls[index] as () => string)(),
      // V8 drops a script's dynamic import callback when it compiles from cached data: the bundle has
      // no import() of its own (bundle-cold-path.mjs) and loads a plugin's file URL through this one.
      (specifier: string) => import(specifier),
    );
  } catch (error) {
    report(`not used (${(error as Error).message})`);
    return false;
  }
  const outcome = cachedData === undefined ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  const main = module.exports.main;
  if (typeof main !== 'function') {
    report('not used (the bundle has no main)');
    return false;
  }
  await main(argv, () => {
    if (outcome === 'hit' || !cacheFile) return report(outcome);
    report(
      writeCache(cacheFile, script.createCachedData()) ? `${outcome}, written` : `${outcome}, not written`,
    );
  });
  return true;
}

/** The first file this checkout's bundle was built from that changed since (only in that checkout). */
function staleInput(cliRoot: string, manifest: ColdManifest): string | undefined {
  if (createHash('sha256').update(realpathSync(cliRoot)).digest('hex') !== manifest.builtIn) return undefined;
  for (const [file, size, mtime, sha256] of manifest.inputs) {
    const stat = statSync(path.join(cliRoot, file), { throwIfNoEntry: false });
    if (!stat || stat.size !== size) return file;
    // A package built again writes the same files anew: only their content counts.
    if (
      stat.mtimeMs !== mtime &&
      createHash('sha256')
        .update(readFileSync(path.join(cliRoot, file)))
        .digest('hex') !== sha256
    )
      return file;
  }
  return undefined;
}

/**
 * Where each package the bundle names files of is installed, found as Node finds a dependency
 * (node_modules of the depending package's directory and its ancestors), each at the version the
 * bundle was built with. The URLs are computed when the bundle asks for them.
 */
function locateUrls(cliRoot: string, manifest: ColdManifest): Array<() => string> {
  const roots: string[] = [];
  for (const { name, version, parent } of manifest.packages) {
    const from = parent === -1 ? cliRoot : (roots[parent] as string);
    const root = findPackage(from, name);
    if (!root) throw new Error(`${name} is not installed where the bundle expects it`);
    const installed = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string }
    ).version;
    if (installed !== version)
      throw new Error(`${name} ${installed} is installed, the bundle has ${version}`);
    roots.push(root);
  }
  return manifest.urls.map(([owner, file]) => {
    let url: string | undefined;
    return () => {
      url ??= pathToFileURL(path.join(owner === -1 ? cliRoot : (roots[owner] as string), file)).href;
      return url;
    };
  });
}

function findPackage(from: string, name: string): string | undefined {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(directory) === directory) return undefined;
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of `file`, which may not exist yet: its nearest existing ancestor's real path, then the rest. */
function realPathOf(file: string): string {
  const rest: string[] = [];
  for (let current = path.resolve(file); ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      if (path.dirname(current) === current) return path.resolve(file);
      rest.push(path.basename(current));
    }
  }
}

/**
 * Why the cache directory may lie in this command's workspace, where a tool of the model could
 * write a cache file for the next command to run as code; undefined when it cannot. The workspace
 * is not known before the configuration is read, so every root it could have is refused: the
 * current directory, and each ancestor below the home directory that holds `.git` or a Quiver
 * configuration (the candidates of plugin-host's `workspaceRoot`); a command line that names a
 * workspace or configuration, or such a configuration that names a workspace, runs without the cache.
 */
function toolsMayWrite(cacheDirectory: string, argv: readonly string[]): string | undefined {
  if (argv.slice(2).some((argument) => /^-[wc]|^--(workspace|config)(=|$)/.test(argument)))
    return 'the command line names a workspace or configuration';
  const cache = realPathOf(cacheDirectory);
  const home = realPathOf(os.homedir());
  const start = realPathOf(process.cwd());
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (directory !== start && isInside(home, directory)) break;
    const configs = CONFIG_FILE_NAMES.map((name) => path.join(directory, name)).filter((file) =>
      existsSync(file),
    );
    if (directory === start || configs.length > 0 || existsSync(path.join(directory, '.git'))) {
      if (isInside(cache, directory)) return `the cache directory ${cacheDirectory} may be in the workspace`;
      const naming = configs.find((file) => /^workspace\s*:/m.test(readFileSync(file, 'utf8')));
      if (naming) return `${naming} names a workspace`;
    }
    if (path.dirname(directory) === directory) break;
  }
  return undefined;
}

/**
 * `$XDG_CACHE_HOME/quiver/code-cache` (else `~/.cache/…`), one file per command, named by the
 * CLI's and Node's versions and a hash of the bundle (its manifest's sha256, size and mtime).
 */
function cacheFilePath(
  env: NodeJS.ProcessEnv,
  manifest: ColdManifest,
  bundlePath: string,
  command: string,
): string | undefined {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(os.homedir(), '.cache');
  if (!path.isAbsolute(base)) return undefined;
  const stat = statSync(bundlePath);
  const key = createHash('sha256')
    .update(
      `${manifest.sha256}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}`,
    )
    .digest('hex')
    .slice(0, 16);
  return path.join(
    base,
    'quiver',
    'code-cache',
    `${command}-${manifest.version}-${process.version}-${key}.bin`,
  );
}

/**
 * A cache file is V8's data behind the sha256 of that data: V8 checks its own header (version,
 * flags, source length) but, in release builds, not the data, so a damaged file is refused here.
 */
function readCache(file: string): Buffer | undefined {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return undefined;
  }
  if (content.length <= 32) return undefined;
  const data = content.subarray(32);
  return createHash('sha256').update(data).digest().equals(content.subarray(0, 32)) ? data : undefined;
}

/** Written whole or not at all (a temporary file renamed); false when the directory cannot be written. */
function writeCache(file: string, data: Buffer): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, Buffer.concat([createHash('sha256').update(data).digest(), data]), {
      mode: 0o600,
    });
    renameSync(temporary, file);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {}
    return false;
  }
  // The same command's caches of other builds of this version, under this Node, are never read
  // again; another version's (a second installation) is left to it.
  const command = path.basename(file).slice(0, path.basename(file).lastIndexOf('-') + 1);
  try {
    for (const name of readdirSync(path.dirname(file)))
      if (name.startsWith(command) && name.endsWith('.bin') && name !== path.basename(file))
        unlinkSync(path.join(path.dirname(file), name));
  } catch {}
  return true;
}
