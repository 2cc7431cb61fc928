#!/usr/bin/env node
// Bundles a package's compiled `dist` (tsc's output) into one module per entry point, so that
// starting the CLI reads a few files per package instead of one per source file: Node 20's ESM
// loader spends most of a cold `quiver call` resolving, reading and linking ~550 small modules,
// and has no compile cache.
//
// What does not change: every bare import (`@quiver/*`, zod, the MCP SDK, native and wasm
// packages) but a few stateless libraries of many small files (INLINE below) stays an import, resolved from this package's directory as before, so each package
// is still one module instance (plugins share `@quiver/types` with the host) and native or wasm
// files are found where pnpm and npm put them. Dynamic imports stay lazy (split into chunks).
// Bundles and chunks live directly in `dist`, and each module's `import.meta.url` is rewritten to
// the URL of the file it was (`new URL('../schemas/x', import.meta.url)` finds what it found). Modules whose functions run in a worker thread from their source
// text (`fn.toString()`) are kept as tsc wrote them and imported, never rewritten.
//
// Usage (after tsc, from the package directory): node ../../scripts/bundle-dist.mjs [entry.js...]
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const MARK = '// bundled by scripts/bundle-dist.mjs\n';

/**
 * Dependencies copied into the bundle instead of imported. Each is a library that keeps no state
 * another module could share (yaml tells its nodes apart by `Symbol.for` keys, which every copy
 * shares), is never handed to or taken from a plugin, and is spread over many small CommonJS files
 * (yaml 72, commander 6, picomatch 5) that Node would otherwise resolve, stat and read one by one
 * at every start. zod, tsyringe, reflect-metadata, the MCP SDK and every `@quiver/*` package stay
 * imports: plugins share them with the host, or they are native, wasm or loaded lazily.
 */
const INLINE = new Set(['yaml', 'commander', 'picomatch', 'ignore', 'canonicalize', 'stemmer']);

/**
 * CommonJS dependencies that stay one shared instance (not copied in) but are loaded with
 * `require()` rather than `import`. Node 20 imports a CommonJS module into an ES module by first
 * parsing it, and every module it re-exports, with its CommonJS export lexer (a wasm module it
 * compiles on first use); `require()` reads the same file into the same `require.cache` entry
 * without that pass. An embedder or plugin that imports one of these gets this same instance.
 * Measured on a cold `quiver call`: importing these three cost ~50 ms, requiring them ~20 ms.
 */
const REQUIRE = new Set(['tsyringe', 'reflect-metadata', 'better-sqlite3']);

/** Source files (relative to dist) that worker threads run from their text. */
const RUN_FROM_SOURCE_TEXT = new Set(['log/log-writer-thread.js', 'log/event-rows.js', 'sandbox-thread.js']);

/**
 * zod is one module of its own, shared by every first-party package: `@quiver/types` carries it
 * bundled into one file (`@quiver/types/zod`, built below), and each package's `import … from 'zod'`
 * imports that file. zod is ~100 ES modules (its core, classic API and 40 locales, all loaded by its
 * main entry): Node 20 resolved, read and linked each of them at every start of the CLI, about a
 * quarter of a cold `quiver call read_file`. zod keeps its shared state (the global registry of
 * descriptions and metadata) on `globalThis`, so a plugin or an embedder with a zod of its own
 * (their schemas reach the host, which reads them by their `_zod` internals, never `instanceof`)
 * works with this copy as with any other.
 */
const OWN_NAME = JSON.parse(readFileSync('package.json', 'utf8')).name;
const SHARED_ZOD = OWN_NAME === '@quiver/types' ? './zod.js' : '@quiver/types/zod';

const sharedZod = {
  name: 'shared-zod',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^zod$/ }, (args) => {
      if (args.resolveDir.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return { path: SHARED_ZOD, external: true };
    });
  },
};

const dist = path.resolve('dist');
const entries = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['index.js'];

for (const entry of entries) {
  if (readFileSync(path.join(dist, entry), 'utf8').slice(0, 200).includes(MARK)) {
    // Another build of this package (several run at once in a shared checkout) bundled tsc's
    // output after ours wrote it: what is there is already this output, bundled.
    console.error(`bundle-dist: dist/${entry} is already bundled; leaving it`);
    process.exit(0);
  }
}

const keepSeparate = {
  name: 'keep-run-from-source-text',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      const relative = path.relative(dist, file).split(path.sep).join('/');
      if (!RUN_FROM_SOURCE_TEXT.has(relative)) return undefined;
      // Every output is written directly in dist, so this path holds from any of them.
      return { path: `./${relative}`, external: true };
    });
  },
};

const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(dist, args.path).split(path.sep).join('/');
      const original = `new URL(${JSON.stringify(`./${relative}`)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', original), loader: 'js' };
    });
  },
};

// `import x, { a } from 'tsyringe'` becomes a module that requires it: its default export is
// `module.exports` and its named exports are the package's own (listed at build time, so a name the
// package does not export fails the build as an import would fail at load), as Node gives them.
const requireCommonJs = {
  name: 'require-commonjs',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (!REQUIRE.has(args.path) || args.resolveDir.includes(`${path.sep}node_modules${path.sep}`))
        return undefined;
      return { path: args.path, namespace: 'require-commonjs' };
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'require-commonjs' }, (args) => {
      const loaded = createRequire(path.join(dist, 'index.js'))(args.path);
      const names = Object.keys(loaded).filter(
        (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
      );
      const lines = [
        "import { createRequire } from 'node:module';",
        `const required = createRequire(import.meta.url)(${JSON.stringify(args.path)});`,
        'export default required;',
        ...names.map((name) => `export const ${name} = required.${name};`),
      ];
      return { contents: lines.join('\n'), loader: 'js', resolveDir: dist };
    });
  },
};

const externalPackages = {
  name: 'external-packages-but-inlined',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@')
        ? args.path.split('/').slice(0, 2).join('/')
        : args.path.split('/')[0];
      // A package copied in resolves its own imports as it would have (builtins stay imports).
      if (args.resolveDir.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      // A dynamic import() of copied-in CommonJS would see only its default export (esbuild's split
      // chunks export nothing else): those stay imports, resolved by Node as before.
      if (INLINE.has(name) && args.kind !== 'dynamic-import') return undefined;
      return { path: args.path, external: true };
    });
  },
};

// CommonJS copied into an ES module calls require() for Node's builtins: such an output gets one,
// put on its first line so that the source map's lines still hold.
const requireLine =
  "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url); ";

const result = await build({
  entryPoints: entries.map((entry) => path.join(dist, entry)),
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  // No keepNames: it wraps every function and class in a `__name()` call at load, which cost
  // ~3% of a cold `quiver call` (CPU 332 -> 321 ms, BENCHMARKS.md). Nothing reads a bundled
  // function's or class's `.name` but scope errors about services (scopes.ts, none of them
  // renamed); a class that refers to itself is named `_Session` instead of `Session` in a stack
  // trace or console.log. Error names are set in code (`this.name = 'QuiverError'`).
  keepNames: false,
  sourcemap: true,
  banner: { js: MARK.trimEnd() },
  plugins: [keepSeparate, requireCommonJs, sharedZod, externalPackages, keepModuleUrls],
  write: false,
  logLevel: 'warning',
});

for (const output of result.outputFiles) {
  // esbuild rewrites a free `require` into its own helper, which a thread's copy would lack.
  if (output.path.endsWith('.js') && /(?<!function )__require\((?!"(node:)?[a-z_]+"\))/.test(output.text)) {
    console.error(`bundle-dist: ${path.relative(dist, output.path)} calls require() outside createRequire`);
    process.exit(1);
  }
}
for (const output of result.outputFiles) {
  // The helper that calls it (`__require`) lives in whichever chunk esbuild put it in.
  if (output.path.endsWith('.js') && /\bvar __require = /.test(output.text)) {
    if (/^(const|let|var|function) require\b/m.test(output.text)) {
      console.error(`bundle-dist: ${path.relative(dist, output.path)} has its own top-level require`);
      process.exit(1);
    }
    writeFileSync(output.path, requireLine + output.text);
  } else writeFileSync(output.path, output.contents);
}
// Chunks are named by their content: those of an earlier bundle that this one no longer has go.
const written = new Set(result.outputFiles.map((output) => path.basename(output.path)));
for (const name of readdirSync(dist))
  if (/^chunk-\w+\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(path.join(dist, name));

if (OWN_NAME === '@quiver/types') {
  // The one file every package's zod import resolves to (see SHARED_ZOD), with zod's own types.
  await build({
    stdin: {
      contents: "export * from 'zod';\nexport { z, default } from 'zod';\n",
      resolveDir: dist,
      loader: 'js',
    },
    outfile: path.join(dist, 'zod.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: false,
    banner: { js: MARK.trimEnd() },
    logLevel: 'warning',
  });
  writeFileSync(
    path.join(dist, 'zod.d.ts'),
    "// zod, bundled into one module (see scripts/bundle-dist.mjs): the same API as the zod package.\nexport * from 'zod';\nexport { z, default } from 'zod';\n",
  );
}
