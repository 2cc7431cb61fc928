import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { QuiverConfig } from '../config/config-schema.js';
import { candidateMarker, pluginCandidates } from '../plugins/plugin-resolver.js';
import { describeChange, type FilePins, firstChange, pinFile, pinTree } from './file-pins.js';
import { newWalk, pinPackage, pinScript } from './package-pins.js';
import { pinPythonMain } from './python-pins.js';
import { trustedWorkspaceFiles } from './trusted-workspace-files.js';

/** What runs for one plugin or stdio MCP server, as a person trusted it. */
export interface CodePin {
  /** Where it resolved: a plugin's package directory or file, a server's executable; null when it did not. */
  location: string | null;
  /** Every file of what runs, and the places Node would look first, pinned as absent. */
  files: FilePins;
}

/** The code part of a trust record: what a person's trust covers beyond the configuration. */
export interface CodePins {
  /** By the reference in quiver.yaml `plugins`. */
  plugins: Record<string, CodePin>;
  /** Stdio servers by name. */
  servers: Record<string, CodePin>;
  /** Workspace files that allowed programs read as configuration (package.json, .npmrc, a Makefile). */
  files: FilePins;
}

export interface PinCodeOptions {
  workspace: string;
  /** Where plugin references resolve from: the config directory, then the workspace. */
  baseDirs: readonly string[];
  /** Earlier pins: a file whose stat did not change is not hashed again. */
  cache?: CodePins | undefined;
}

export function emptyCodePins(): CodePins {
  return { plugins: {}, servers: {}, files: {} };
}

function cacheOf(cache: CodePins | undefined): FilePins {
  if (!cache) return {};
  return Object.assign(
    {},
    cache.files,
    ...Object.values(cache.plugins).map((entry) => entry.files),
    ...Object.values(cache.servers).map((entry) => entry.files),
  );
}

/**
 * The pin of a plugin reference now: the first place Node's resolution finds it (every place
 * before it pinned as absent) and, for a package, its files and dependency closure; for a file,
 * the file and what it imports from the workspace.
 */
export function pinPlugin(ref: string, options: PinCodeOptions, cache = cacheOf(options.cache)): CodePin {
  const walk = newWalk(cache);
  for (const candidate of pluginCandidates(ref, options.baseDirs)) {
    const marker = candidateMarker(ref, candidate);
    walk.files[marker] = pinFile(marker, cache[marker]);
    const found = walk.files[marker]?.sha256;
    if (found === null) continue;
    if (found === 'directory') pinPackage(walk, candidate);
    else if (marker === candidate) pinScript(walk, candidate, options.workspace);
    else pinPackage(walk, candidate);
    return { location: candidate, files: walk.files };
  }
  return { location: null, files: walk.files };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const SCRIPT_ARGUMENT = /\.(?:[cm]?[jt]sx?|py|sh|rb|pl)$/;
const PYTHON_COMMAND = /^python[\d.]*$/;

/**
 * The pin of a stdio server now: its executable as the child's PATH finds it (a candidate in the
 * workspace that would be found first is pinned as absent) and, for every workspace file it runs
 * (the executable, a script argument), that file and what it imports from the workspace.
 */
export function pinServer(
  config: Readonly<Record<string, unknown>>,
  options: PinCodeOptions,
  cache = cacheOf(options.cache),
): CodePin {
  const walk = newWalk(cache);
  const command = stringOf(config.command);
  if (command === undefined) return { location: null, files: {} };
  const cwd = path.resolve(stringOf(config.cwd) ?? process.cwd());
  const env = (typeof config.env === 'object' && config.env !== null ? config.env : {}) as Record<
    string,
    unknown
  >;
  let location: string | null = null;
  if (command.includes('/')) {
    location = path.resolve(cwd, command);
  } else {
    const searchPath = stringOf(env.PATH) ?? process.env.PATH ?? '';
    for (const directory of searchPath.split(path.delimiter)) {
      if (directory === '') continue;
      const candidate = path.resolve(cwd, directory, command);
      const found = isFile(candidate);
      if (isInside(candidate, options.workspace))
        walk.files[candidate] = pinFile(candidate, cache[candidate]);
      if (found) {
        location = candidate;
        break;
      }
    }
  }
  const pythonPath = (stringOf(env.PYTHONPATH) ?? '')
    .split(path.delimiter)
    .filter((entry) => entry !== '')
    .map((entry) => path.resolve(cwd, entry));
  walk.pythonPath = pythonPath;
  // An executable outside the workspace is pinned by location: no tool of the model writes there.
  if (location !== null && isInside(realPath(location), options.workspace))
    pinScript(walk, location, options.workspace);
  if (location !== null && isInside(location, options.workspace)) pinVirtualEnvironment(walk, location);
  const args = Array.isArray(config.args) ? config.args.filter((arg) => typeof arg === 'string') : [];
  const python = PYTHON_COMMAND.test(path.basename(command));
  (args as string[]).forEach((arg, index) => {
    if (python && args[index - 1] === '-m') {
      pinPythonMain(walk, arg, cwd, options.workspace, pythonPath);
      return;
    }
    // `--import=./hook.mjs`: the value of an option is a file the program may run too.
    const value = arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (arg.startsWith('-') && !arg.includes('=')) return;
    if (!(value.includes('/') || SCRIPT_ARGUMENT.test(value))) return;
    const target = path.resolve(cwd, value);
    if (isInside(target, options.workspace)) pinScript(walk, target, options.workspace);
  });
  return { location, files: walk.files };
}

/**
 * A Python virtual environment in the workspace whose interpreter a server runs
 * (`.venv/bin/python`, a link out of the workspace): its `pyvenv.cfg` and every installed file
 * under `lib/`, which Python imports from before anything else a script does not bring itself.
 */
function pinVirtualEnvironment(walk: ReturnType<typeof newWalk>, executable: string): void {
  const environment = path.dirname(path.dirname(executable));
  const configuration = path.join(environment, 'pyvenv.cfg');
  if (!isFile(configuration)) return;
  walk.files[configuration] = pinFile(configuration, walk.cache[configuration]);
  pinTree(path.join(environment, 'lib'), walk.files, walk.cache);
}

function isStdioServer(config: Readonly<Record<string, unknown>>): boolean {
  return !('url' in config) && 'command' in config;
}

/**
 * Pins the code a configuration starts: every plugin it names and every stdio server, and the
 * workspace files given (what allowed programs read as configuration).
 */
export function pinProjectCode(
  config: QuiverConfig,
  options: PinCodeOptions & { workspaceFiles?: readonly string[] },
): CodePins {
  const cache = cacheOf(options.cache);
  const pins = emptyCodePins();
  for (const ref of config.plugins) pins.plugins[ref] = pinPlugin(ref, options, cache);
  for (const [name, server] of Object.entries(config.mcpServers))
    if (isStdioServer(server)) pins.servers[name] = pinServer(server, options, cache);
  for (const file of options.workspaceFiles ?? []) pins.files[file] = pinFile(file, cache[file]);
  return pins;
}

/**
 * What trusting `config` pins now, as `quiver trust` and `--trust-project` do: its code resolved
 * from the config directory and the workspace, and the workspace files allowed programs read.
 */
export function pinTrustedCode(
  config: QuiverConfig,
  where: { workspace: string; configFile?: string | undefined; cache?: CodePins | undefined },
): CodePins {
  const workspace = path.resolve(where.workspace);
  const configDir = where.configFile ? path.dirname(path.resolve(where.configFile)) : workspace;
  return pinProjectCode(config, {
    workspace,
    baseDirs: [...new Set([configDir, workspace])],
    cache: where.cache,
    workspaceFiles: trustedWorkspaceFiles(workspace),
  });
}

/** What `codeChange` says of code the trust record holds no pin for. */
export const NOT_PINNED = 'the trust record pins no code for it';

/** What differs between a pin and the code there now, as a phrase; undefined when nothing does. */
export function codeChange(pinned: CodePin | undefined, current: CodePin): string | undefined {
  if (pinned === undefined) return NOT_PINNED;
  if (pinned.location !== current.location) {
    if (current.location === null) return `${pinned.location} is gone`;
    if (pinned.location === null)
      return `it now resolves to ${current.location}, where nothing was installed`;
    return `it now resolves to ${current.location} instead of ${pinned.location}`;
  }
  const change = firstChange(pinned.files, current.files);
  return change && describeChange(change);
}

/** How many files a pin holds that exist (what `quiver trust` shows). */
export function pinnedFileCount(pin: CodePin): number {
  return Object.values(pin.files).filter(
    (entry) => typeof entry.sha256 === 'string' && entry.sha256 !== 'directory',
  ).length;
}
