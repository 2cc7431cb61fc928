#!/usr/bin/env node
// Writes dist/cold/quiver.cjs: everything dist/launch/main.js reaches (the CLI, the @quiver packages
// it depends on, their dependencies) as ONE CommonJS script, and dist/cold/manifest.json beside it.
// `quiver call` and `quiver tools` run this script through vm.Script with the code V8 compiled in an
// earlier run (src/launch/code-cache.ts): Node 20 caches no compilation of ES modules.
//
// The bundle holds copies of code; it never changes what is resolved from where:
// - every `import.meta.url` becomes the URL of the file it was in, in the directory where that
//   package is installed at run time (found by the launcher as Node finds dependencies), so workers,
//   wasm, native modules and CommonJS dependencies loaded through createRequire(import.meta.url)
//   (tsyringe, better-sqlite3, text-search's CommonJS copy) are the installed files, one instance;
// - plugins are imported by the plugin host from where they are installed, as before (trust pins
//   that path), and see their own `@quiver/types`;
// - the launcher uses the bundle only when each package it names is installed at the version it
//   was built with, and, in the checkout it was built in, only while no file it was built from
//   changed since (a package rebuilt without rebuilding the CLI runs from its ES modules).
// Functions that worker threads run from their source text come out unchanged (sourceTextModules).
//
// Usage (after tsc and bundle-dist, from apps/cli): node scripts/bundle-cold-path.mjs
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const cliRoot = realpathSync('.');
const dist = path.join(cliRoot, 'dist');
const outDir = path.join(dist, 'cold');
const cliPackage = JSON.parse(readFileSync('package.json', 'utf8'));

/** Modules whose exported functions worker threads run from `fn.toString()` (as in bundle-dist.mjs). */
const RUN_FROM_SOURCE_TEXT = ['log/log-writer-thread.js', 'log/event-rows.js', 'sandbox-thread.js'];

/** The directory of the package a file belongs to: the nearest package.json with a name. */
const packageRoots = new Map();
function packageRootOf(file) {
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    if (packageRoots.has(directory)) return packageRoots.get(directory);
    const manifest = path.join(directory, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name) {
      packageRoots.set(directory, directory);
      return directory;
    }
    if (path.dirname(directory) === directory) throw new Error(`no package.json above ${file}`);
  }
}

function findPackage(from, name) {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(directory) === directory) return undefined;
  }
}

/**
 * How the launcher finds a package at run time: the chain of dependencies from the CLI to it
 * (breadth first over `dependencies` and `optionalDependencies`, each resolved as Node does).
 */
const chains = new Map([[cliRoot, []]]);
{
  const queue = [cliRoot];
  while (queue.length > 0) {
    const root = queue.shift();
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = findPackage(root, name);
      if (!found || chains.has(found)) continue;
      chains.set(found, [...chains.get(root), { name, root: found }]);
      queue.push(found);
    }
  }
}

const packages = [];
const packageIndex = new Map([[cliRoot, -1]]);
function indexOfPackage(root) {
  if (packageIndex.has(root)) return packageIndex.get(root);
  const chain = chains.get(root);
  if (!chain) throw new Error(`${root} is reached by the bundle but is no dependency of the CLI`);
  let parent = -1;
  for (const link of chain) {
    if (!packageIndex.has(link.root)) {
      const { version } = JSON.parse(readFileSync(path.join(link.root, 'package.json'), 'utf8'));
      packages.push({ name: link.name, version, parent });
      packageIndex.set(link.root, packages.length - 1);
    }
    parent = packageIndex.get(link.root);
  }
  return parent;
}

/**
 * `import()` in the bundle: V8 loses the dynamic import callback of a script compiled from cached
 * data (Node 20: "A dynamic import callback was not specified"), so none may stay. A builtin becomes
 * a `require()` (below); an import of a computed name (a plugin's file URL) calls the launcher's
 * `import()` (`__quiverImport`), which resolves such absolute URLs as anywhere. A string literal
 * argument is left to esbuild, which bundles what it resolves; one it cannot fails the check below.
 */
const acorn = createRequire(
  path.join(findPackage(findPackage(cliRoot, '@quiver/wiring'), '@quiver/tools-repl'), 'package.json'),
)('acorn');

/** Where `import(` of something other than a string literal starts, by acorn's tokens (never in a string). */
function computedImportsOf(text) {
  const tokens = [...acorn.tokenizer(text, { ecmaVersion: 'latest', sourceType: 'module' })];
  const starts = [];
  tokens.forEach((token, index) => {
    if (token.type.keyword !== 'import' || tokens[index + 1]?.type.label !== '(') return;
    if (tokens[index + 2]?.type.label !== 'string') starts.push(token.start);
  });
  return starts;
}

const builtinImports = {
  name: 'builtin-imports',
  setup(esbuild) {
    esbuild.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !isBuiltin(args.path)) return undefined;
      return { path: args.path, namespace: 'builtin-import' };
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'builtin-import' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

const urls = [];
const moduleUrls = {
  name: 'module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const computedImports = text.includes('import(') ? computedImportsOf(text) : [];
      if (!text.includes('import.meta') && computedImports.length === 0) return undefined;
      const file = realpathSync(args.path);
      let contents = text;
      if (computedImports.length > 0)
        console.error(`bundle-cold-path: import() of a computed name in ${path.relative(cliRoot, file)}`);
      for (const start of computedImports.reverse())
        contents = `${contents.slice(0, start)}__quiverImport${contents.slice(start + 'import'.length)}`;
      if (contents.includes('import.meta')) {
        const root = packageRootOf(file);
        const index =
          urls.push([indexOfPackage(root), path.relative(root, file).split(path.sep).join('/')]) - 1;
        contents = contents.replaceAll('import.meta.url', `__quiverModuleUrl(${index})`);
        if (contents.includes('import.meta'))
          throw new Error(`${file} uses import.meta other than import.meta.url`);
      }
      return { contents, loader: 'js' };
    });
  },
};

/**
 * Modules whose functions worker threads run from their source text (`fn.toString()`) keep that
 * text exactly: bundled, esbuild would rename names declared inside them that clash with the
 * bundle's (`db` -> `db2`). Their text is compiled as it is, apart from the `export` keywords.
 */
const sourceTextModules = {
  name: 'source-text-modules',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.js$/ }, (args) => {
      const file = realpathSync(args.path);
      if (
        !RUN_FROM_SOURCE_TEXT.some((name) =>
          file.endsWith(`${path.sep}dist${path.sep}${name.split('/').join(path.sep)}`),
        )
      )
        return undefined;
      const text = readFileSync(file, 'utf8');
      const names = [...text.matchAll(/^export (?:async )?(?:function\*?|const|let|class) ([\w$]+)/gm)].map(
        (match) => match[1],
      );
      const body = text.replace(/^export (?=(?:async )?(?:function|const|let|class) )/gm, '');
      if (/^\s*(import|export)\b/m.test(body) || body.includes('import.meta'))
        throw new Error(
          `bundle-cold-path: ${file} runs in a thread from its text and must import and export nothing but declarations`,
        );
      const lines = [
        `const module = new Function(${JSON.stringify(`${body}\nreturn { ${names.join(', ')} };`)})();`,
        ...names.map((name) => `export const ${name} = module.${name};`),
      ];
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [path.join(dist, 'launch', 'main.js')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  charset: 'ascii',
  keepNames: false,
  write: false,
  outfile: path.join(outDir, 'quiver.cjs'),
  metafile: true,
  logLevel: 'warning',
  plugins: [builtinImports, sourceTextModules, moduleUrls],
});

const [output] = result.outputFiles;
/** The files the bundle was built from (not the builtins of builtinImports). */
const inputFiles = Object.keys(result.metafile.inputs)
  .filter((input) => !input.startsWith('builtin-import:'))
  .map((input) => realpathSync(path.resolve(input)));
const text = output.text;
if (/\b__(dirname|filename)\b/.test(text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))) {
  for (const line of text.split('\n'))
    if (/\b__(dirname|filename)\b/.test(line) && !/^\s*(\/\/|\*)/.test(line)) console.error(line.trim());
  throw new Error(
    'bundle-cold-path: a bundled module uses __dirname or __filename, which would name the bundle',
  );
}
{
  const left = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((entry) => entry.kind === 'dynamic-import');
  if (left.length > 0)
    throw new Error(
      `bundle-cold-path: import() of ${left.map((entry) => entry.path).join(', ')} left in the bundle`,
    );
}

// Every @quiver package the bundle holds a copy of is checked at its installed version too.
for (const file of inputFiles) {
  const root = packageRootOf(file);
  if (
    root !== cliRoot &&
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).name.startsWith('@quiver/')
  )
    indexOfPackage(root);
}

// In the checkout it is built in, the bundle stands in for these files only while they are unchanged.
const inputs = inputFiles
  .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`))
  .map((file) => {
    const stat = statSync(file);
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    return [path.relative(cliRoot, file), stat.size, stat.mtimeMs, sha256];
  });

mkdirSync(outDir, { recursive: true });
const manifest = {
  sha256: createHash('sha256').update(text).digest('hex'),
  version: cliPackage.version,
  builtIn: createHash('sha256').update(cliRoot).digest('hex'),
  packages,
  urls,
  inputs,
};
// Each written whole (a concurrent build of this package must not leave half a bundle).
for (const [name, content] of [
  ['quiver.cjs', text],
  ['manifest.json', `${JSON.stringify(manifest)}\n`],
]) {
  const temporary = path.join(outDir, `${name}.${process.pid}.tmp`);
  writeFileSync(temporary, content);
  renameSync(temporary, path.join(outDir, name));
}
console.error(
  `bundle-cold-path: dist/cold/quiver.cjs ${(text.length / 1024).toFixed(0)} KB from ${inputFiles.length} files`,
);
