// The official MCP conformance suite, run under Node 22: installed once through npx, then started
// directly (npx's own start-up would cost seconds per scenario).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SUITE_VERSION = '0.1.16';
const SUITE = [
  '-y',
  '-p',
  'node@22',
  '-p',
  `@modelcontextprotocol/conformance@${SUITE_VERSION}`,
  '--',
  'conformance',
];
const SCENARIO_LIMIT_MS = 90_000;

const strip = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

export function run(command, commandArgs, options = {}) {
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

/** Runs the suite with these arguments: `{ code, output }`, never throws for a failing scenario. */
export async function openSuite() {
  const located = await locateSuite();
  return (suiteArgs, options) => run(located.node, [located.entry, ...suiteArgs], options);
}

export function checksUnder(directory) {
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

export function describeChecks(file) {
  const checks = JSON.parse(readFileSync(file, 'utf8'));
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map(
      (check) =>
        `    ${check.status.toLowerCase()} ${check.id}: ${check.description}${check.errorMessage ? ` (${check.errorMessage})` : ''}`,
    );
}

export function tail(text, lines) {
  return text
    .trim()
    .split('\n')
    .slice(-lines)
    .map((line) => `    | ${line}`);
}

export async function listScenarios(suite) {
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
