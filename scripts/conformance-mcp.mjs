#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, under Node 22
// through npx) against Quiver: every client scenario against the bridge (scripts/conformance/
// client-driver.mjs: createQuiver and `quiver mcp login`, never the raw SDK), and every server
// scenario against `quiver serve --http` with the conformance fixture plugin of @quiver/test-utils.
// Prints each scenario's verdict, what a failing one expected, and the expected-failure list
// with its reasons. Exits 1 on a failure not on that list.
//
//   node scripts/conformance-mcp.mjs [--client-only | --server-only] [--scenario <name>]…
//                                    [--strict-expected]
// Needs the built CLI, wiring and test-utils (pnpm build).
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPECTED_CLIENT_FAILURES, EXPECTED_SERVER_FAILURES } from './conformance/expected-failures.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_VERSION = '0.1.16';
const SUITE = [
  '-y',
  '-p',
  'node@22',
  '-p',
  `@modelcontextprotocol/conformance@${SUITE_VERSION}`,
  '--',
  'conformance',
];
const DRIVER = path.join(REPO, 'scripts/conformance/client-driver.mjs');
const CLI = path.join(REPO, 'apps/cli/dist/bin.js');
const FIXTURE_PLUGIN = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-plugin.js');
const FIXTURE_SERVER = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-server.js');
const CLIENT_CONCURRENCY = Number(process.env.QUIVER_CONFORMANCE_CONCURRENCY ?? 3);
const SCENARIO_LIMIT_MS = 90_000;

const args = process.argv.slice(2);
const only = (flag) => args.includes(flag);
const picked = args.flatMap((arg, index) => (args[index - 1] === '--scenario' ? [arg] : []));
const wanted = (name) => picked.length === 0 || picked.includes(name);

const strip = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

function run(command, commandArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.limitMs ?? SCENARIO_LIMIT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output: strip(output) });
    });
  });
}

/** Node 22 and the suite's entry, installed once through npx; later runs skip npx's start-up. */
async function locateSuite() {
  const { code, output } = await run(
    'npx',
    [
      ...SUITE.slice(0, -1),
      'sh',
      '-c',
      'echo "node=$(command -v node)"; echo "suite=$(readlink -f "$(command -v conformance)")"',
    ],
    { limitMs: 300_000 },
  );
  const node = /^node=(\S+)$/m.exec(output)?.[1];
  const entry = /^suite=(\S+)$/m.exec(output)?.[1];
  if (code !== 0 || !node || !entry)
    throw new Error(`could not install the conformance suite under Node 22:\n${output}`);
  return { node, entry };
}

let located;
const suite = (suiteArgs, options) => run(located.node, [located.entry, ...suiteArgs], options);

function checksUnder(directory) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') found.push(full);
    }
  };
  if (existsSync(directory)) walk(directory);
  return found;
}

function describeChecks(file) {
  const checks = JSON.parse(readFileSync(file, 'utf8'));
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map(
      (check) =>
        `    ${check.status.toLowerCase()} ${check.id}: ${check.description}${check.errorMessage ? ` (${check.errorMessage})` : ''}`,
    );
}

function tail(text, lines) {
  return text
    .trim()
    .split('\n')
    .slice(-lines)
    .map((line) => `    | ${line}`);
}

async function listScenarios() {
  const { code, output } = await suite(['list'], { limitMs: 300_000 });
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  const scenarios = { server: [], client: [] };
  let section;
  for (const line of output.split('\n')) {
    if (line.startsWith('Server scenarios')) section = 'server';
    else if (line.startsWith('Client scenarios')) section = 'client';
    const match = /^\s+-\s+(\S+)/.exec(line);
    if (match && section) scenarios[section].push(match[1]);
  }
  return scenarios;
}

async function runClientScenario(name) {
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

function fixtureWorkspace() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-conformance-serve-'));
  mkdirSync(path.join(dir, 'personalities'));
  mkdirSync(path.join(dir, 'data'));
  writeFileSync(
    path.join(dir, 'quiver.yaml'),
    [
      `plugins:\n  - ${JSON.stringify(FIXTURE_PLUGIN)}`,
      // The suite's resources and prompts: a plugin cannot offer them, a bridged server can.
      `mcpServers:\n  fixture:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]`,
      'defaultPersonality: conformance\n',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'personalities/conformance.yaml'),
    'id: conformance\nplugins: [conformance-fixture, mcp-bridge]\nmcpServers:\n  fixture: {}\npermissions:\n  allow: [test_*, json_schema_2020_12_tool]\n',
  );
  return dir;
}

async function startServe(workspace) {
  const child = spawn(
    process.execPath,
    [CLI, '--trust-project', 'serve', '--http', '127.0.0.1:0', '--json'],
    {
      cwd: workspace,
      env: { ...process.env, XDG_DATA_HOME: path.join(workspace, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`quiver serve did not start:\n${output}`)), 30_000);
    const look = (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`quiver serve exited with ${code}:\n${output}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** The scenario a result directory of the server command belongs to (`server-<name>-<time>`). */
function serverScenarioOf(file) {
  return /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(path.basename(path.dirname(file)))?.[1];
}

async function runServerScenarios(names) {
  const workspace = fixtureWorkspace();
  const serve = await startServe(workspace);
  const outputDir = path.join(workspace, 'results');
  try {
    let output = '';
    const runs = picked.length === 0 ? [['--suite', 'all']] : names.map((name) => ['--scenario', name]);
    for (const selection of runs)
      output += (
        await suite(['server', '--url', serve.url, ...selection, '-o', outputDir], { limitMs: 180_000 })
      ).output;
    const byScenario = new Map(checksUnder(outputDir).map((file) => [serverScenarioOf(file), file]));
    return names.map((name) => {
      const checks = byScenario.get(name);
      if (checks === undefined)
        return {
          name,
          passed: false,
          details: ['    no checks were recorded; suite output:', ...tail(output, 12)],
        };
      const details = describeChecks(checks).filter((line) => line.startsWith('    failure'));
      return { name, passed: details.length === 0, details };
    });
  } finally {
    serve.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

function report(kind, results, expected) {
  let unexpected = 0;
  let stale = 0;
  console.log(`\n=== ${kind} scenarios (${results.length}) ===`);
  for (const result of results.sort((a, b) => a.name.localeCompare(b.name))) {
    const reason = expected[result.name];
    if (result.passed && reason === undefined) console.log(`  pass   ${result.name}`);
    else if (result.passed) {
      stale += 1;
      console.log(
        `  XPASS  ${result.name}: passes now; remove it from scripts/conformance/expected-failures.mjs`,
      );
    } else if (reason !== undefined) console.log(`  xfail  ${result.name}: ${reason}`);
    else {
      unexpected += 1;
      console.log(`  FAIL   ${result.name}`);
      for (const line of result.details) console.log(line);
    }
  }
  const passed = results.filter((result) => result.passed).length;
  console.log(
    `  ${kind}: ${passed}/${results.length} pass, ${unexpected} unexpected failures, ${stale} expected failures that pass now`,
  );
  return { unexpected, stale };
}

const missing = [
  CLI,
  DRIVER,
  FIXTURE_PLUGIN,
  FIXTURE_SERVER,
  path.join(REPO, 'packages/wiring/dist/index.js'),
].filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(`conformance: build first (pnpm build); missing ${missing.join(', ')}`);
  process.exit(2);
}

const started = Date.now();
located = await locateSuite();
const scenarios = await listScenarios();
let unexpected = 0;
let stale = 0;
if (!only('--server-only')) {
  const names = scenarios.client.filter(wanted);
  const results = await runPool(names, CLIENT_CONCURRENCY, runClientScenario);
  const counts = report('client', results, EXPECTED_CLIENT_FAILURES);
  unexpected += counts.unexpected;
  stale += counts.stale;
}
if (!only('--client-only')) {
  const names = scenarios.server.filter(wanted);
  const counts = report('server', await runServerScenarios(names), EXPECTED_SERVER_FAILURES);
  unexpected += counts.unexpected;
  stale += counts.stale;
}
console.log(
  `\nconformance ${SUITE_VERSION}: ${unexpected} unexpected failures, ${stale} stale expected-failure entries, ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(unexpected > 0 || (stale > 0 && only('--strict-expected')) ? 1 : 0);
