// Runs every benchmark in this folder, one after another, in one process (ratios are measured
// against baselines taken in the same run). `pnpm bench` or `pnpm bench -- assembly search`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const module = (await import(pathToFileURL(path.join(here, file)).href)) as { run?: () => Promise<void> };
  if (typeof module.run !== 'function') {
    console.log(`(skipped: ${file} exports no run())`);
    continue;
  }
  await module.run();
}
