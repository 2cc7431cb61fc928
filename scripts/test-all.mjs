// The README's test command: build, run every package's tests (through turbo), and end with one
// line listing the tests that did not run because a system tool is missing, and why.
// `node scripts/test-all.mjs [--no-build] [turbo args…]`; exits with the test run's status.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ledger = process.env.QUIVER_NOT_RUN_DIR ?? path.join(root, 'node_modules', '.cache', 'quiver-not-run');
const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const turboArgs = args.filter((argument) => argument !== '--no-build');

function turbo(...taskArgs) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'turbo'), ['run', ...taskArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, QUIVER_NOT_RUN_DIR: ledger },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

rmSync(ledger, { recursive: true, force: true });
if (build) {
  const status = turbo(
    'build',
    '--output-logs=errors-only',
    ...turboArgs.filter((a) => a.startsWith('--filter')),
  );
  if (status !== 0) process.exit(status);
}
const status = turbo('test', '--concurrency=2', '--continue', ...turboArgs);

const records = existsSync(ledger)
  ? readdirSync(ledger)
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => readFileSync(path.join(ledger, file), 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(line))
  : [];
if (records.length === 0) {
  console.log('System tools: every test that needs one ran.');
} else {
  const byTools = new Map();
  for (const record of records) {
    const key = `${record.missing.join(', ')} not on PATH`;
    const packages = byTools.get(key) ?? new Map();
    packages.set(record.package, (packages.get(record.package) ?? 0) + 1);
    byTools.set(key, packages);
  }
  const parts = [...byTools].map(
    ([reason, packages]) =>
      `${reason}: ${[...packages].map(([name, count]) => `${count} in ${name}`).join(', ')}`,
  );
  console.log(
    `Did not run (${records.length} tests; install the tools, or set QUIVER_REQUIRE_SYSTEM_TOOLS=1 to make this a failure): ${parts.join('; ')}`,
  );
}
process.exit(status);
