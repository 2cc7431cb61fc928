#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, under Node 22
// through npx) against Quiver: every client scenario against the bridge (scripts/conformance/
// client-driver.mjs: createQuiver and `quiver mcp login`, never the raw SDK), and every server
// scenario against `quiver serve --http` with the conformance fixture plugin of @quiver/test-utils.
// Prints each scenario's verdict, what a failing one expected, and the expected-failure list
// with its reasons. Exits 1 on a failure not on that list.
// Then the pre-release suite's server run for revision 2026-07-28 (`server --requirements
// 2026-07-28`, plus the tasks extension's scenarios), with its own expected-failure list.
//
//   node scripts/conformance-mcp.mjs [--client-only | --server-only] [--scenario <name>]…
//                                    [--released-only | --next-only] [--strict-expected]
// Needs the built CLI, wiring and test-utils (pnpm build).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runClientScenarios } from './conformance/client-scenarios.mjs';
import {
  EXPECTED_CLIENT_FAILURES,
  EXPECTED_NEXT_SERVER_FAILURES,
  EXPECTED_SERVER_FAILURES,
} from './conformance/expected-failures.mjs';
import { CLI, FIXTURE_PLUGIN, FIXTURE_SERVER, runServerScenarios } from './conformance/server-scenarios.mjs';
import {
  listScenarios,
  NEXT_REVISION,
  NEXT_SUITE_VERSION,
  openSuite,
  REPO,
  SUITE_VERSION,
} from './conformance/suite.mjs';

const DRIVER = path.join(REPO, 'scripts/conformance/client-driver.mjs');
const CLIENT_CONCURRENCY = Number(process.env.QUIVER_CONFORMANCE_CONCURRENCY ?? 3);

const args = process.argv.slice(2);
const only = (flag) => args.includes(flag);
const picked = args.flatMap((arg, index) => (args[index - 1] === '--scenario' ? [arg] : []));
const wanted = (name) => picked.length === 0 || picked.includes(name);

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
    } else if (reason !== undefined) {
      // The first failed check too, so a reason that no longer matches the failure shows.
      console.log(`  xfail  ${result.name}: ${reason}`);
      for (const line of result.details.slice(0, 1)) console.log(`  ${line}`);
    } else {
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
let unexpected = 0;
let stale = 0;
const count = (counts) => {
  unexpected += counts.unexpected;
  stale += counts.stale;
};
if (!only('--next-only')) {
  const suite = await openSuite();
  const scenarios = await listScenarios(suite);
  if (!only('--server-only')) {
    const names = scenarios.client.filter(wanted);
    const results = await runClientScenarios(suite, names, CLIENT_CONCURRENCY);
    count(report(`client ${SUITE_VERSION}`, results, EXPECTED_CLIENT_FAILURES));
  }
  if (!only('--client-only')) {
    const names = scenarios.server.filter(wanted);
    const results = await runServerScenarios(suite, names, picked);
    count(report(`server ${SUITE_VERSION}`, results, EXPECTED_SERVER_FAILURES));
  }
}
// Revision 2026-07-28: the server scenarios it requires, and the tasks extension's.
if (!only('--released-only') && !only('--client-only')) {
  const suite = await openSuite(NEXT_SUITE_VERSION);
  const scenarios = await listScenarios(suite, NEXT_REVISION);
  const tasks = scenarios.unscored.server.filter((name) => name.startsWith('tasks-'));
  const names = [...scenarios.server, ...tasks].filter(wanted);
  const results = await runServerScenarios(suite, names, picked, {
    requirements: NEXT_REVISION,
    extra: tasks,
  });
  count(
    report(
      `server ${NEXT_SUITE_VERSION} --requirements ${NEXT_REVISION}`,
      results,
      EXPECTED_NEXT_SERVER_FAILURES,
    ),
  );
}
console.log(
  `\nconformance: ${unexpected} unexpected failures, ${stale} stale expected-failure entries, ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(unexpected > 0 || (stale > 0 && only('--strict-expected')) ? 1 : 0);
