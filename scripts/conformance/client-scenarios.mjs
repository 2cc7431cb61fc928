// Client scenarios: the suite starts its server and runs client-driver.mjs (Quiver's bridge) on it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checksUnder, describeChecks, REPO, tail } from './suite.mjs';

const DRIVER = path.join(REPO, 'scripts/conformance/client-driver.mjs');

async function runClientScenario(suite, name) {
  const outputDir = mkdtempSync(path.join(os.tmpdir(), 'quiver-conformance-client-'));
  try {
    const { code, output } = await suite([
      'client',
      '--command',
      `${process.execPath} ${DRIVER}`,
      '--scenario',
      name,
      '--timeout',
      '45000',
      '-o',
      outputDir,
    ]);
    const details = [];
    if (code !== 0) {
      const [checks] = checksUnder(outputDir);
      if (checks) {
        details.push(...describeChecks(checks));
        const stderr = path.join(path.dirname(checks), 'stderr.txt');
        if (existsSync(stderr)) details.push('    driver stderr:', ...tail(readFileSync(stderr, 'utf8'), 12));
      } else details.push('    no checks were recorded; suite output:', ...tail(output, 12));
    }
    return { name, passed: code === 0, details };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

async function runPool(items, concurrency, worker) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++];
        results.push(await worker(item));
      }
    }),
  );
  return results;
}

/** Every named client scenario, `concurrency` at a time: `{ name, passed, details }` each. */
export function runClientScenarios(suite, names, concurrency) {
  return runPool(names, concurrency, (name) => runClientScenario(suite, name));
}
