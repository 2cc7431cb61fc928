import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageCandidates } from '../plugins/plugin-resolver.js';
import { type FilePins, pinFile, pinTree } from './file-pins.js';
import { isPythonScript, pinPythonScript } from './python-pins.js';

/** What pinning walks: files pinned so far, the earlier pins (a stat cache) and what was visited. */
export interface PinWalk {
  files: FilePins;
  cache: FilePins;
  visited: Set<string>;
  /** Workspace directories of the server's PYTHONPATH, searched after a Python script's own. */
  pythonPath?: readonly string[];
}

export function newWalk(cache: FilePins = {}): PinWalk {
  return { files: {}, cache, visited: new Set() };
}

function pin(walk: PinWalk, file: string): void {
  walk.files[file] = pinFile(file, walk.cache[file]);
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Where Node resolves package `name` from `directory`: every `node_modules/<name>/package.json`
 * before the one found is pinned as absent (a package planted there would be picked first), the
 * found one with the package. Undefined when it is not installed (every candidate pinned absent).
 */
export function resolvePackage(walk: PinWalk, name: string, directory: string): string | undefined {
  for (const candidate of packageCandidates(name, directory)) {
    const marker = path.join(candidate, 'package.json');
    pin(walk, marker);
    if (walk.files[marker]?.sha256 !== null) return candidate;
  }
  return undefined;
}

function manifestOf(packageDirectory: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

function keysOf(manifest: Record<string, unknown>, key: string): string[] {
  const value = manifest[key];
  return typeof value === 'object' && value !== null ? Object.keys(value) : [];
}

/**
 * What the package runs with: the dependencies it declares, and the packages installed in its own
 * node_modules (Node finds those first, declared or not) except its development ones, which a
 * workspace package's node_modules also holds.
 */
function dependencyNames(packageDirectory: string): string[] {
  const manifest = manifestOf(packageDirectory);
  const development = new Set(keysOf(manifest, 'devDependencies'));
  const declared = ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((key) =>
    keysOf(manifest, key),
  );
  const nested = nestedPackages(packageDirectory).filter((name) => !development.has(name));
  return [...new Set([...declared, ...nested])];
}

/** Packages installed in the package's own node_modules: Node finds them first, declared or not. */
function nestedPackages(realDirectory: string): string[] {
  const modules = path.join(realDirectory, 'node_modules');
  let entries: string[];
  try {
    entries = readdirSync(modules);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    if (!entry.startsWith('@')) return [entry];
    try {
      return readdirSync(path.join(modules, entry)).map((scoped) => `${entry}/${scoped}`);
    } catch {
      return [];
    }
  });
}

/**
 * Pins a package as Node would run it: every file of its real directory (through a pnpm
 * symlink) and, resolved from there, each dependency it declares or carries in its own
 * node_modules, recursively.
 */
export function pinPackage(walk: PinWalk, directory: string): void {
  const real = realPath(directory);
  if (walk.visited.has(real)) return;
  walk.visited.add(real);
  pinTree(real, walk.files, walk.cache);
  for (const name of dependencyNames(real)) {
    const found = resolvePackage(walk, name, real);
    if (found !== undefined) pinPackage(walk, found);
  }
}

const SCRIPT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const IMPORT_PATTERNS = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"\n]+)['"]/g,
  /\bimport\s*['"]([^'"\n]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];
/** What CommonJS tries for `./x`, in order; ES modules take the exact file, the first entry. */
const RELATIVE_SUFFIXES = [
  '',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '.node',
  '/package.json',
  '/index.js',
  '/index.mjs',
  '/index.cjs',
  '/index.json',
];

/**
 * What a TypeScript runner (tsx, ts-node, Node's type stripping) also tries for `./x` or `./x.js`
 * from a TypeScript file: the TypeScript file of the same name first.
 */
const TYPESCRIPT_SUFFIXES = ['.ts', '.tsx', '.mts', '.cts', '/index.ts', '/index.tsx'];
const JAVASCRIPT_TO_TYPESCRIPT: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

function isScript(file: string, content: string): boolean {
  return SCRIPT_EXTENSIONS.has(path.extname(file)) || /^#!.*\b(?:node|tsx|ts-node|bun|deno)\b/.test(content);
}

/** Every file the import of `base` may load, in the order the importer's runtime tries them. */
function relativeCandidates(base: string, importer: string): string[] {
  if (!TYPESCRIPT_EXTENSIONS.has(path.extname(importer)))
    return RELATIVE_SUFFIXES.map((suffix) => base + suffix);
  const extension = path.extname(base);
  const swapped = (JAVASCRIPT_TO_TYPESCRIPT[extension] ?? []).map(
    (replacement) => base.slice(0, -extension.length) + replacement,
  );
  return [
    ...swapped,
    ...RELATIVE_SUFFIXES.map((suffix) => base + suffix),
    ...TYPESCRIPT_SUFFIXES.map((suffix) => base + suffix),
  ];
}

/** The specifiers a script imports with a literal string (a computed `import()` is not seen). */
function importedSpecifiers(content: string): string[] {
  const specifiers = new Set<string>();
  for (const pattern of IMPORT_PATTERNS)
    for (const match of content.matchAll(pattern)) if (match[1]) specifiers.add(match[1]);
  return [...specifiers];
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Pins a script and, when it lies in the workspace, what it imports: relative files (with every
 * name CommonJS would try before the one found, pinned as absent), packages by name with their
 * dependencies, and the package.json files that decide how it loads.
 */
export function pinScript(walk: PinWalk, file: string, workspace: string): void {
  const real = realPath(file);
  pin(walk, file);
  if (real !== file) pin(walk, real);
  if (walk.visited.has(real)) return;
  walk.visited.add(real);
  if (!isInside(real, workspace)) return;
  pinPackageJsonChain(walk, path.dirname(real), workspace);
  let content: string;
  try {
    content = readFileSync(real, 'utf8');
  } catch {
    return;
  }
  if (isPythonScript(real, content)) {
    pinPythonScript(walk, real, workspace, walk.pythonPath);
    return;
  }
  if (!isScript(real, content)) return;
  for (const specifier of importedSpecifiers(content)) {
    if (isBuiltin(specifier) || specifier.startsWith('data:')) continue;
    if (specifier.startsWith('.') || path.isAbsolute(specifier) || specifier.startsWith('file:')) {
      const base = specifier.startsWith('file:')
        ? fileURLToPath(specifier)
        : path.resolve(path.dirname(real), specifier);
      // TypeScript runners differ in which of `x.ts` and `x.js` they try first: both are pinned.
      const every = TYPESCRIPT_EXTENSIONS.has(path.extname(real));
      let followed = false;
      for (const candidate of relativeCandidates(base, real)) {
        if (followed && !every) break;
        pin(walk, candidate);
        const sha256 = walk.files[candidate]?.sha256;
        if (followed || sha256 === null || sha256 === 'directory') continue;
        if (candidate.endsWith('/package.json')) continue;
        pinScript(walk, candidate, workspace);
        followed = true;
      }
      continue;
    }
    if (specifier.startsWith('#')) continue;
    const found = resolvePackage(walk, packageName(specifier), path.dirname(real));
    if (found !== undefined) pinPackage(walk, found);
  }
}

/** package.json from the script's directory up to the first one (its `type` and `imports` apply). */
function pinPackageJsonChain(walk: PinWalk, directory: string, workspace: string): void {
  for (let current = directory; isInside(current, workspace); current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    pin(walk, manifest);
    if (walk.files[manifest]?.sha256 !== null) return;
    if (current === workspace) return;
  }
}
