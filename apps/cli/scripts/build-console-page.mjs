// Bundles the console page into dist/console-page (served by the console; no CDN, works offline).
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'console-page');
const out = path.join(root, 'dist', 'console-page');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(source, 'src', 'page.ts')],
  outfile: path.join(out, 'page.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'page.css']) copyFileSync(path.join(source, file), path.join(out, file));
