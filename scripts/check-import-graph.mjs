// The import-graph check: fails on any circle between source files (type-only and dynamic
// imports included) and on a database driver or storage backend imported outside the packages
// allowed to load one. `node scripts/check-import-graph.mjs [--root <dir>] [--json]`.
// Imports are read with the TypeScript compiler's own pre-processor, so `import type`,
// `export … from`, `import("…")` in types and code, and `require` all count.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Top-level folders whose files are checked. */
const SOURCE_ROOTS = ['packages', 'extensions', 'apps', 'examples', 'bench', 'scripts'];
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'coverage', '.turbo', '.git']);

/** Packages that load a database driver, and so only the storage layer may import them. */
export const DRIVER_PACKAGES = ['pg', 'better-sqlite3', '@quiver/storage-sqlite', '@quiver/storage-postgres'];

/**
 * Where a driver may be imported: the storage backends, the composition root, the CLI and the
 * private test utilities (`testkit` is what plugin authors test against the real host with).
 */
export const DRIVER_ALLOWED_PREFIXES = [
  'packages/storage-sqlite/',
  'packages/storage-postgres/',
  'packages/wiring/',
  'apps/cli/',
  'packages/testkit/',
  'packages/test-utils/',
  'packages/test-storage/',
];

/** Tests, fixtures and benchmarks may open a database directly: they are not shipped. */
export function isTestFile(relativePath) {
  return (
    relativePath.startsWith('bench/') ||
    /(^|\/)(test|tests|__tests__|fixtures)\//.test(relativePath) ||
    /\.(test|spec|bench|test-d)\.[cm]?[jt]sx?$/.test(relativePath)
  );
}

function listSourceFiles(root) {
  const files = [];
  const walk = (directory) => {
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        entry.isFile() &&
        SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) &&
        !entry.name.endsWith('.d.ts')
      ) {
        files.push(full);
      }
    }
  };
  for (const top of SOURCE_ROOTS) walk(path.join(root, top));
  return files.sort();
}

const isFile = (file) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Resolves a relative specifier the way NodeNext + TypeScript does for our sources. */
function resolveRelative(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [];
  const swapped = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };
  const extension = path.extname(base);
  if (swapped[extension]) {
    for (const replacement of swapped[extension])
      candidates.push(base.slice(0, -extension.length) + replacement);
  }
  candidates.push(base);
  for (const extension of ['.ts', '.tsx', '.mts', '.js', '.mjs']) candidates.push(base + extension);
  for (const index of ['index.ts', 'index.tsx', 'index.js', 'index.mjs'])
    candidates.push(path.join(base, index));
  return candidates.find(isFile);
}

function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Strongly connected components with more than one file (or a file importing itself). */
function findCycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (start) => {
    // Iterative Tarjan: the graph can be deep enough to overflow recursion.
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edgeIndex] = frame;
      const edges = [...(graph.get(node) ?? [])];
      if (edgeIndex < edges.length) {
        frame[1] += 1;
        const next = edges[edgeIndex];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter);
          counter += 1;
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), index.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && graph.get(node)?.has(node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** One concrete loop through a component, for a message a person can follow. */
function exampleLoop(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at = node; at !== start; at = previous.get(at)) loop.splice(1, 0, at);
        loop.push(start);
        return loop;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

function readDependencyDeclarations(root, packageJsonFiles) {
  const found = [];
  for (const file of packageJsonFiles) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    const directory = `${path.posix.dirname(relative)}/`;
    if (DRIVER_ALLOWED_PREFIXES.some((prefix) => directory.startsWith(prefix))) continue;
    if (directory.startsWith('bench/')) continue;
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(manifest[field] ?? {})) {
        if (DRIVER_PACKAGES.includes(name)) found.push({ file: relative, field, name });
      }
    }
  }
  return found;
}

function listPackageManifests(root) {
  const manifests = [];
  for (const top of ['packages', 'extensions', 'apps', 'examples']) {
    const directory = path.join(root, top);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const manifest = path.join(directory, entry.name, 'package.json');
      if (entry.isDirectory() && isFile(manifest)) manifests.push(manifest);
    }
  }
  return manifests;
}

/**
 * Reads every source file under `root` and returns the import circles, the driver imports made
 * outside the storage layer, and driver dependencies declared by packages outside it.
 */
export function checkImportGraph(root) {
  const files = listSourceFiles(root);
  const relative = (file) => path.relative(root, file).split(path.sep).join('/');
  const graph = new Map();
  const driverImports = [];
  for (const file of files) {
    const from = relative(file);
    const edges = new Set();
    graph.set(from, edges);
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const imported of importedFiles) {
      const specifier = imported.fileName;
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (target && !target.split(path.sep).includes('node_modules')) edges.add(relative(target));
        continue;
      }
      const name = packageNameOf(specifier);
      if (!DRIVER_PACKAGES.includes(name)) continue;
      if (isTestFile(from) || DRIVER_ALLOWED_PREFIXES.some((prefix) => from.startsWith(prefix))) continue;
      const line = text.slice(0, imported.pos).split('\n').length;
      driverImports.push({ file: from, line, specifier });
    }
  }
  for (const [from, edges] of graph) {
    for (const target of edges) if (!graph.has(target)) edges.delete(target);
    if (edges.size === 0) graph.set(from, edges);
  }
  const cycles = findCycles(graph).map((files) => ({ files, loop: exampleLoop(graph, files) }));
  const dependencyDeclarations = readDependencyDeclarations(root, listPackageManifests(root));
  return { filesChecked: files.length, cycles, driverImports, dependencyDeclarations };
}

export function formatReport(result) {
  const lines = [];
  for (const [position, cycle] of result.cycles.entries()) {
    lines.push(`import circle ${position + 1} (${cycle.files.length} files): ${cycle.loop.join(' -> ')}`);
    if (cycle.files.length > cycle.loop.length - 1) {
      lines.push(`  every file in it: ${cycle.files.join(', ')}`);
    }
  }
  for (const found of result.driverImports) {
    lines.push(
      `driver import outside the storage layer: ${found.file}:${found.line} imports '${found.specifier}'`,
    );
  }
  for (const found of result.dependencyDeclarations) {
    lines.push(
      `driver dependency outside the storage layer: ${found.file} declares '${found.name}' in ${found.field}`,
    );
  }
  const problems = result.cycles.length + result.driverImports.length + result.dependencyDeclarations.length;
  if (problems === 0) {
    lines.push(`import graph: ${result.filesChecked} files, no circles, drivers only in the storage layer`);
  } else {
    lines.push(
      `import graph: ${result.filesChecked} files, ${result.cycles.length} circles, ` +
        `${result.driverImports.length} driver imports and ${result.dependencyDeclarations.length} driver dependencies outside the storage layer.`,
    );
    if (result.cycles.length > 0) {
      lines.push(
        '  A circle: move what both files share into a module that imports neither (a leaf), or split a file by the direction its parts are used in.',
      );
    }
    if (result.driverImports.length + result.dependencyDeclarations.length > 0) {
      lines.push(
        `  A driver (${DRIVER_PACKAGES.join(', ')}) may be imported only in ${DRIVER_ALLOWED_PREFIXES.join(', ')} and tests: write the store against SqlStore from @quiver/types and let wiring pass the backend in.`,
      );
    }
  }
  return { text: lines.join('\n'), problems };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const rootIndex = args.indexOf('--root');
  const root =
    rootIndex >= 0
      ? path.resolve(args[rootIndex + 1])
      : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const result = checkImportGraph(root);
  if (args.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
    process.exit(
      result.cycles.length + result.driverImports.length + result.dependencyDeclarations.length > 0 ? 1 : 0,
    );
  }
  const report = formatReport(result);
  console.log(report.text);
  process.exit(report.problems > 0 ? 1 : 0);
}
