import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FilePins, pinFile, pinTree } from './file-pins.js';

/** What Python pinning needs of a walk: the files pinned so far, the stat cache and what was read. */
export interface PythonWalk {
  files: FilePins;
  cache: FilePins;
  visited: Set<string>;
}

const PYTHON_IMPORTS = [
  /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import\b/gm,
  /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm,
  /\b(?:import_module|__import__)\(\s*['"]([\w.]+)['"]/g,
];

export function isPythonScript(file: string, content: string): boolean {
  return path.extname(file) === '.py' || /^#!.*\bpython[\d.]*\b/.test(content);
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Top-level module names a Python file imports absolutely, and whether it imports relatively. */
function importsOf(content: string): { modules: string[]; relative: boolean } {
  const modules = new Set<string>();
  let relative = false;
  for (const match of content.matchAll(PYTHON_IMPORTS[0] as RegExp)) {
    if ((match[1] ?? '') !== '') relative = true;
    else if (match[2]) modules.add(match[2].split('.')[0] as string);
  }
  for (const match of content.matchAll(PYTHON_IMPORTS[1] as RegExp))
    for (const part of (match[1] ?? '').split(','))
      modules.add((part.trim().split(/[ \t]/)[0] ?? '').split('.')[0] as string);
  for (const match of content.matchAll(PYTHON_IMPORTS[2] as RegExp))
    modules.add((match[1] ?? '').split('.')[0] as string);
  modules.delete('');
  return { modules: [...modules], relative };
}

function entriesOf(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Every `.py` file under `directory` (not its `__pycache__`). */
function pythonFilesUnder(directory: string): string[] {
  return entriesOf(directory).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : pythonFilesUnder(full);
    return entry.name.endsWith('.py') ? [full] : [];
  });
}

/**
 * Pins where Python finds top-level module `name` in the workspace directories of its path: the
 * package directory `name/` (every file in it), and every `name.*` file beside it (`name.py`,
 * a compiled `name.pyc`, an extension module `name.cpython-….so`, which Python picks before the
 * source). `name.py` and `name/` are pinned as absent where missing, so that one planted there
 * (a `json.py` beside the script shadows the standard library) is a change. The search stops at
 * the first directory that holds the module, as Python's does.
 */
function pinModule(walk: PythonWalk, name: string, searchDirs: readonly string[], workspace: string): void {
  for (const directory of searchDirs) {
    if (!isInside(directory, workspace)) continue;
    const packageDirectory = path.join(directory, name);
    walk.files[packageDirectory] = pinFile(packageDirectory, walk.cache[packageDirectory]);
    const source = path.join(directory, `${name}.py`);
    walk.files[source] = pinFile(source, walk.cache[source]);
    const beside = entriesOf(directory)
      .filter((entry) => entry.name.startsWith(`${name}.`) && !entry.isDirectory())
      .map((entry) => path.join(directory, entry.name));
    for (const file of beside) walk.files[file] = pinFile(file, walk.cache[file]);
    if (walk.files[packageDirectory]?.sha256 === 'directory') {
      pinTree(packageDirectory, walk.files, walk.cache);
      for (const file of pythonFilesUnder(packageDirectory)) pinPythonFile(walk, file, searchDirs, workspace);
      return;
    }
    if (beside.length > 0) {
      for (const file of beside) if (file.endsWith('.py')) pinPythonFile(walk, file, searchDirs, workspace);
      return;
    }
  }
}

/** A Python file in the workspace and, through its imports, every workspace module it loads. */
export function pinPythonFile(
  walk: PythonWalk,
  file: string,
  searchDirs: readonly string[],
  workspace: string,
): void {
  const key = `python:${file}`;
  if (walk.visited.has(key)) return;
  walk.visited.add(key);
  walk.files[file] = pinFile(file, walk.cache[file]);
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const { modules, relative } = importsOf(content);
  // A relative import loads from the file's own package: the whole package is pinned.
  const ownPackage = path.dirname(file);
  if (relative && ownPackage !== workspace && isInside(ownPackage, workspace))
    pinTree(ownPackage, walk.files, walk.cache);
  for (const name of modules) pinModule(walk, name, searchDirs, workspace);
}

/**
 * Pins a Python script run as a file: Python puts the script's own directory first on its path,
 * then PYTHONPATH, so every module the script imports is looked up there before the standard
 * library and site-packages.
 */
export function pinPythonScript(
  walk: PythonWalk,
  script: string,
  workspace: string,
  pythonPath: readonly string[] = [],
): void {
  pinPythonFile(walk, script, [path.dirname(script), ...pythonPath], workspace);
}

/** Pins a module run with `python -m name`: looked up from the working directory first. */
export function pinPythonMain(
  walk: PythonWalk,
  moduleName: string,
  cwd: string,
  workspace: string,
  pythonPath: readonly string[] = [],
): void {
  pinModule(walk, moduleName.split('.')[0] as string, [cwd, ...pythonPath], workspace);
}
