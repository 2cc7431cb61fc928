// Public API reports: the export names and kinds of a package's built entry, compared with the
// committed api-report.json in the package root. Each package's test/public-api.test.ts calls this.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const UPDATE_HINT =
  'The public API changed. If that is intended, run `UPDATE_API_REPORT=1 pnpm test` in the package and commit api-report.json (and add a changeset).';

/**
 * Names a declaration entry re-exports (`export { a, type B } from`, `export type { C }`,
 * `export declare …`): the type-only ones are the names missing from the runtime namespace.
 */
export function declaredExportNames(declarations) {
  const names = new Set();
  for (const match of declarations.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  for (const match of declarations.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|function|const|let|enum)\s+([A-Za-z_$][\w$]*)/g,
  )) {
    if (match[1]) names.add(match[1]);
  }
  return names;
}

/** `class`, `function`, `object` (objects, arrays, maps, sets) or `constant` (primitives); `type` is added for type-only names. */
export function exportKind(value) {
  if (typeof value === 'function')
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  if (typeof value === 'object' && value !== null) return 'object';
  return 'constant';
}

/** Sorted `{ name: kind }` of a module namespace, plus the type-only names (kind `type`). */
export function describeExports(namespace, typeNames = []) {
  const kinds = new Map(Object.keys(namespace).map((name) => [name, exportKind(namespace[name])]));
  for (const name of typeNames) if (!kinds.has(name)) kinds.set(name, 'type');
  const report = {};
  for (const name of [...kinds.keys()].sort()) report[name] = kinds.get(name);
  return report;
}

function packageRootOf(location) {
  const value =
    location instanceof URL || String(location).startsWith('file:')
      ? fileURLToPath(location)
      : String(location);
  return path.resolve(value);
}

/** The file `import '<package>'` loads, from package.json `exports['.']`. */
export async function entryOf(packageRoot) {
  const manifest = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8'));
  const root = manifest.exports?.['.'];
  const entry =
    typeof root === 'string' ? root : (root?.import ?? root?.default ?? manifest.main ?? './dist/index.js');
  const types = typeof root === 'object' ? (root?.types ?? manifest.types) : manifest.types;
  return {
    name: manifest.name,
    file: path.join(packageRoot, entry),
    types: types ? path.join(packageRoot, types) : undefined,
  };
}

/** Entries built on tsyringe need the polyfill an app imports first; load it when the package has it. */
async function loadReflectMetadata(packageRoot) {
  try {
    await import(
      pathToFileURL(createRequire(path.join(packageRoot, 'package.json')).resolve('reflect-metadata')).href
    );
  } catch {
    // Not a dependency: the entry does not need it.
  }
}

/**
 * Builds the report of the package at `location` (a directory path or file URL) and reads the
 * committed one. With UPDATE_API_REPORT=1 the committed file is rewritten first.
 */
export async function apiReport(location, env = process.env) {
  const packageRoot = packageRootOf(location);
  const { name, file, types } = await entryOf(packageRoot);
  if (!existsSync(file))
    throw new Error(
      `${name}: ${path.relative(packageRoot, file)} does not exist; build the package first (pnpm build).`,
    );
  await loadReflectMetadata(packageRoot);
  const typeNames = types && existsSync(types) ? declaredExportNames(await readFile(types, 'utf8')) : [];
  const actual = {
    package: name,
    exports: describeExports(await import(pathToFileURL(file).href), typeNames),
  };
  const reportPath = path.join(packageRoot, 'api-report.json');
  if (env.UPDATE_API_REPORT === '1') await writeFile(reportPath, `${JSON.stringify(actual, null, 2)}\n`);
  const expected = existsSync(reportPath)
    ? JSON.parse(await readFile(reportPath, 'utf8'))
    : { package: name, exports: {} };
  return { actual, expected, reportPath, message: UPDATE_HINT };
}
