#!/usr/bin/env node
// A CommonJS copy of a package's bundled ES module entry, for a dependent that loads it with
// require() on first use (Node 20 cannot load an ES module synchronously). Only for an entry that
// imports nothing and keeps no state another copy would have to share: `@quiver/text-search`,
// which the runtime requires at the first tool search so that `searchTools` stays synchronous.
//   node ../../scripts/commonjs-copy.mjs index.js index.cjs   (from the package directory)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const [entry = 'index.js', output = 'index.cjs'] = process.argv.slice(2);
const file = path.resolve('dist', entry);
if (/^\s*import\s/m.test(readFileSync(file, 'utf8'))) {
  console.error(`commonjs-copy: dist/${entry} imports other modules; a CommonJS copy would duplicate them`);
  process.exit(1);
}
await build({
  entryPoints: [file],
  outfile: path.resolve('dist', output),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  keepNames: false,
  logLevel: 'warning',
});
