// Server scenarios: `quiver serve --http` with the fixture plugin (the suite's tools) and a bridged
// fixture server (its resources and prompts), one suite run over all of them.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checksUnder, describeChecks, REPO, tail } from './suite.mjs';

export const CLI = path.join(REPO, 'apps/cli/dist/bin.js');
export const FIXTURE_PLUGIN = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-plugin.js');
export const FIXTURE_SERVER = path.join(REPO, 'packages/test-utils/dist/conformance-fixture-server.js');

/** A workspace and, beside it (never inside: trust and pins refuse that), a data home. */
function fixtureWorkspace() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'quiver-conformance-serve-'));
  const dir = path.join(root, 'workspace');
  mkdirSync(path.join(dir, 'personalities'), { recursive: true });
  mkdirSync(path.join(root, 'data'));
  writeFileSync(
    path.join(dir, 'quiver.yaml'),
    [
      `plugins:\n  - ${JSON.stringify(FIXTURE_PLUGIN)}`,
      // The suite's resources and prompts: a plugin cannot offer them, a bridged server can.
      // Its test_input_required_result_prompt asks its client (the bridge), which asks serve's caller.
      `mcpServers:\n  fixture:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    allow: [elicitation]`,
      'defaultPersonality: conformance\n',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'personalities/conformance.yaml'),
    // The suite asks for its prompts by their own names, not as mcp__fixture__<prompt>.
    'id: conformance\nplugins: [conformance-fixture, mcp-bridge]\nmcpServers:\n  fixture: { promptNames: own }\npermissions:\n  allow: [test_*, json_schema_2020_12_tool, greet, slow_compute, failing_job, protocol_error_job, confirm_delete, test_tool_with_task, multi_input]\n',
  );
  return { root, workspace: dir, dataHome: path.join(root, 'data') };
}

async function startServe({ workspace, dataHome }) {
  const child = spawn(
    process.execPath,
    [CLI, '--trust-project', 'serve', '--http', '127.0.0.1:0', '--json'],
    {
      cwd: workspace,
      env: { ...process.env, XDG_DATA_HOME: dataHome },
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
  const warnings = () => output.split('\n').filter((line) => /\b(warn|error)\b/i.test(line));
  return { url, warnings, stop: () => child.kill('SIGTERM') };
}

/** The scenario a result directory of the server command belongs to (`server-<name>-<time>`). */
function serverScenarioOf(file) {
  return /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(path.basename(path.dirname(file)))?.[1];
}

/**
 * `picked`: run these scenarios one by one instead of the whole suite. `requirements`: the
 * revision whose required scenarios one run checks (`--requirements`); `extra` are run one by one
 * after it (scenarios the suite runs without scoring, e.g. an extension's).
 */
export async function runServerScenarios(suite, names, picked, { requirements, extra = [] } = {}) {
  if (names.length === 0) return [];
  const fixture = fixtureWorkspace();
  const serve = await startServe(fixture);
  const outputDir = path.join(fixture.root, 'results');
  try {
    let output = '';
    const whole = requirements ? ['--requirements', requirements] : ['--suite', 'all'];
    const runs =
      picked.length === 0
        ? [whole, ...extra.filter((name) => names.includes(name)).map((name) => ['--scenario', name])]
        : names.map((name) => ['--scenario', name]);
    for (const selection of runs)
      output += (
        await suite(['server', '--url', serve.url, ...selection, '-o', outputDir], { limitMs: 180_000 })
      ).output;
    // A plugin or server that serve could not load would fail scenarios for the wrong reason.
    for (const line of serve.warnings()) console.log(`quiver serve: ${line}`);
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
    rmSync(fixture.root, { recursive: true, force: true });
  }
}
