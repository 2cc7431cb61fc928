// The official MCP conformance suite, run under Node 22: installed once through npx, then started
// directly (npx's own start-up would cost seconds per scenario).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The released suite: revision 2025-11-25, every client and server scenario. */
export const SUITE_VERSION = '0.1.16';
/** The pre-release that checks revision 2026-07-28 (`server --requirements 2026-07-28`). */
export const NEXT_SUITE_VERSION = '0.2.0-alpha.12';
export const NEXT_REVISION = '2026-07-28';
const suiteCommand = (version) => [
  '-y',
  '-p',
  'node@22',
  '-p',
  `@modelcontextprotocol/conformance@${version}`,
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
async function locateSuite(version) {
  const { code, output } = await run(
    'npx',
    [
      ...suiteCommand(version).slice(0, -1),
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
export async function openSuite(version = SUITE_VERSION) {
  const located = await locateSuite(version);
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

/** `requirements`: only the scenarios that revision requires (the pre-release's `list --requirements`). */
export async function listScenarios(suite, requirements) {
  const { code, output } = await suite(['list', ...(requirements ? ['--requirements', requirements] : [])], {
    limitMs: 300_000,
  });
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  // Required scenarios are listed under their kind; those run but not scored by the suite
  // (extensions, pending) carry their kind after the name: `- tasks-lifecycle [server]`.
  const scenarios = { server: [], client: [], unscored: { server: [], client: [] } };
  let section;
  for (const line of output.split('\n')) {
    if (line.startsWith('Server scenarios')) section = 'server';
    else if (line.startsWith('Client scenarios')) section = 'client';
    else if (line.startsWith('Run and reported')) section = 'unscored';
    const match = /^\s+-\s+(\S+)(?:\s+\[(server|client)\])?/.exec(line);
    if (!match || !section) continue;
    if (section === 'unscored') {
      if (match[2]) scenarios.unscored[match[2]].push(match[1]);
    } else scenarios[section].push(match[1]);
  }
  return scenarios;
}
