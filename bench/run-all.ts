// Runs every benchmark in this folder, one after another, in one process (ratios are measured
// against baselines taken in the same run). `pnpm bench` or `pnpm bench -- assembly search`.
// A benchmark that fails does not stop the others; parts that need a missing system tool are
// listed at the end. The exit code is 1 only when a benchmark itself failed.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { notRunParts, recordNotRun } from './not-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((argument) => argument !== '--');
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

const failed: { file: string; error: string }[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  try {
    const module = (await import(pathToFileURL(path.join(here, file)).href)) as { run?: () => Promise<void> };
    if (typeof module.run !== 'function') {
      recordNotRun(file, 'it exports no run()');
      continue;
    }
    await module.run();
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`benchmark ${file} failed: ${message}`);
    failed.push({ file, error: message.split('\n')[0] ?? message });
  }
}

console.log(`\n${files.length - failed.length} of ${files.length} benchmark files ran.`);
const skipped = notRunParts();
if (skipped.length > 0) {
  console.log(
    `Not run (${skipped.length}): ${skipped.map(({ part, reason }) => `${part} — ${reason}`).join('; ')}`,
  );
}
if (failed.length > 0) {
  console.log(
    `Failed (${failed.length}): ${failed.map(({ file, error }) => `${file}: ${error}`).join('; ')}`,
  );
  process.exitCode = 1;
}
