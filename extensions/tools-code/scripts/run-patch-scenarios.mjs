#!/usr/bin/env node
// Runs a directory of apply-patch scenarios (input/, patch.txt, expected/) against the real
// apply_patch tool from dist/ and prints PASS, FAIL or INTENDED DIFFERENCE for each.
// Usage: node scripts/run-patch-scenarios.mjs [scenarios-dir]   (build the package first)
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPatchText } from '../dist/index.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');
const defaultScenarios = path.resolve(repoRoot, '../shared/data/apply-patch-scenarios');

/**
 * Scenarios whose expected tree Quiver deliberately does not produce, with the reason. For
 * these the runner checks Quiver's own guarantee instead: the tree equals the input.
 */
const INTENDED_DIFFERENCES = new Map([
  [
    '015_failure_after_partial_success_leaves_changes',
    'Quiver applies a patch to every file or to none; the suite expects the add that ran before the failing update to stay on disk.',
  ],
]);

async function exists(target) {
  return stat(target).then(
    () => true,
    () => false,
  );
}

/** Every directory and regular file under `root`, files with their bytes. */
async function snapshot(root) {
  const files = new Map();
  const directories = new Set();
  if (!(await exists(root))) return { files, directories };
  const walk = async (directory, relative) => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        directories.add(childRelative);
        await walk(absolute, childRelative);
      } else if (entry.isFile()) {
        files.set(childRelative, await readFile(absolute));
      }
    }
  };
  await walk(root, '');
  return { files, directories };
}

function firstDifferentLine(actual, expected) {
  const actualLines = actual.toString('utf8').split('\n');
  const expectedLines = expected.toString('utf8').split('\n');
  for (let index = 0; index < Math.max(actualLines.length, expectedLines.length); index += 1) {
    if (actualLines[index] !== expectedLines[index]) {
      return `line ${index + 1}: expected ${JSON.stringify(expectedLines[index] ?? '<none>')}, got ${JSON.stringify(actualLines[index] ?? '<none>')}`;
    }
  }
  return 'same lines, different bytes';
}

/** Differences between two snapshots, one line each; empty when equal. */
function compareSnapshots(actual, expected) {
  const differences = [];
  for (const [file, bytes] of expected.files) {
    const got = actual.files.get(file);
    if (got === undefined) differences.push(`missing file ${file}`);
    else if (!got.equals(bytes)) differences.push(`different ${file} (${firstDifferentLine(got, bytes)})`);
  }
  for (const file of actual.files.keys())
    if (!expected.files.has(file)) differences.push(`extra file ${file}`);
  for (const directory of expected.directories)
    if (!actual.directories.has(directory)) differences.push(`missing directory ${directory}/`);
  for (const directory of actual.directories)
    if (!expected.directories.has(directory)) differences.push(`extra directory ${directory}/`);
  return differences;
}

export async function runScenario(scenarioDir) {
  const name = path.basename(scenarioDir);
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'quiver-patch-scenario-'));
  try {
    const input = path.join(scenarioDir, 'input');
    if (await exists(input)) await cp(input, workspace, { recursive: true });
    const patch = await readFile(path.join(scenarioDir, 'patch.txt'), 'utf8');
    const result = await applyPatchText(workspace, patch);
    const actual = await snapshot(workspace);
    const detail = result.ok ? 'applied' : `rejected: ${result.error.split('\n')[0]}`;
    const reason = INTENDED_DIFFERENCES.get(name);
    if (reason !== undefined) {
      const keptInput = compareSnapshots(actual, await snapshot(input));
      if (keptInput.length === 0 && !result.ok)
        return { name, status: 'INTENDED DIFFERENCE', lines: [reason, detail] };
      return {
        name,
        status: 'FAIL',
        lines: ['expected the input tree to be left untouched', ...keptInput, detail],
      };
    }
    const differences = compareSnapshots(actual, await snapshot(path.join(scenarioDir, 'expected')));
    return differences.length === 0
      ? { name, status: 'PASS', lines: [detail] }
      : { name, status: 'FAIL', lines: [...differences, detail] };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

export async function runScenarios(scenariosDir) {
  const names = (await readdir(scenariosDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && /^\d{3}_/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const results = [];
  for (const name of names) results.push(await runScenario(path.join(scenariosDir, name)));
  return results;
}

async function main() {
  const scenariosDir = path.resolve(process.argv[2] ?? defaultScenarios);
  if (!(await exists(scenariosDir))) {
    console.error(`No scenarios at ${scenariosDir}; pass the scenarios directory as the first argument.`);
    process.exitCode = 2;
    return;
  }
  const results = await runScenarios(scenariosDir);
  for (const result of results) {
    console.log(`${result.status.padEnd(20)} ${result.name}`);
    if (result.status !== 'PASS') for (const line of result.lines) console.log(`    ${line}`);
  }
  const count = (status) => results.filter((result) => result.status === status).length;
  console.log(
    `\n${results.length} scenarios: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('INTENDED DIFFERENCE')} intended differences.`,
  );
  if (results.length === 0 || count('FAIL') > 0) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
