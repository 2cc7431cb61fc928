// The shell oracle's fuzzer: runs generated commands through @quiver/permissions and through
// real bash (bubblewrap + strace), and reports every command the analyzer allowed although bash
// ran a program or wrote a file it did not report. See docs/shell-oracle.md.
//
//   pnpm fuzz:shell --count 10000 --seed 7 [--from K] [--state FILE] [--chunk 100]
//                   [--minimize-budget 150] [--no-record] [--recheck] [--known]
//   pnpm fuzz:shell --workspaces --count 100000 --seed 7 [--from K] [--state FILE] [--chunk 10] [--jobs 1]
//
// --known runs the hand-written attacks of test/oracle/known-attacks.ts instead; --recheck runs
// every entry of oracle-regressions.json again and updates its "open" flags. --workspaces plants
// hostile workspace states and runs the commands some rule set allows in them: --count is the
// number of allowed pairs to run, --from the first planted state; with --recheck it reruns
// workspace-regressions.json.
//
// Needs `pnpm build` (it judges packages/permissions/dist), bwrap, strace and git on PATH.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const oracleSource = path.join(root, 'packages/permissions/test/oracle');
const regressionsFile = path.join(root, 'packages/permissions/test/fixtures/oracle-regressions.json');
const workspaceRegressionsFile = path.join(
  root,
  'packages/permissions/test/fixtures/workspace-regressions.json',
);
const cache = path.join(root, 'node_modules/.cache/quiver-shell-oracle');

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    from: { type: 'string', default: '0' },
    state: { type: 'string' },
    chunk: { type: 'string' },
    'minimize-budget': { type: 'string' },
    'no-record': { type: 'boolean', default: false },
    recheck: { type: 'boolean', default: false },
    known: { type: 'boolean', default: false },
    workspaces: { type: 'boolean', default: false },
    jobs: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    `${readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .filter((_line, index, lines) => lines.slice(0, index + 1).every((earlier) => earlier.startsWith('//')))
      .join('\n')}\n`,
  );
  process.exit(0);
}

function integer(name) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number of 0 or more, got "${values[name]}".`);
    process.exit(2);
  }
  return value;
}

/** The oracle is TypeScript kept with the tests; plain node runs a transpiled copy of it. */
async function loadOracle() {
  const ts = (await import('typescript')).default;
  mkdirSync(cache, { recursive: true });
  const sources = readdirSync(oracleSource)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(oracleSource, file));
  sources.push(path.join(root, 'packages/wiring/src/default-personality.ts'));
  for (const source of sources) {
    const output = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: false,
      },
      fileName: source,
    });
    writeFileSync(
      path.join(cache, path.basename(source).replace(/\.ts$/, '.mjs')),
      rewriteImports(output.outputText),
    );
  }
  const load = (name) => import(pathToFileURL(path.join(cache, `${name}.mjs`)).href);
  return {
    fixture: await load('fixture-tree'),
    oracle: await load('oracle'),
    port: await load('permissions-port'),
    ruleSets: await load('rule-sets'),
    fuzzRun: await load('fuzz-run'),
    regressions: await load('regressions'),
    mutation: await load('mutation'),
    knownAttacks: await load('known-attacks'),
    knownAttackRun: await load('known-attack-run'),
    defaults: await load('default-personality'),
    workspaceOracle: await load('workspace-oracle'),
    workspaceFuzz: await load('workspace-fuzz'),
    workspaceRegressions: await load('workspace-regressions'),
  };
}

function rewriteImports(code) {
  return code.replace(/from '\.\/([\w-]+)\.js'/g, "from './$1.mjs'");
}

/** A build of @quiver/permissions may be under way in another shell: retry for a while. */
async function loadPermissions() {
  const entry = pathToFileURL(path.join(root, 'packages/permissions/dist/index.js')).href;
  for (let attempt = 1; ; attempt++) {
    try {
      return await import(`${entry}?attempt=${attempt}`);
    } catch (error) {
      if (attempt >= 10) {
        console.error(`Cannot load packages/permissions/dist (run pnpm build first): ${error.message}`);
        process.exit(2);
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

/** What a run of bash costs here without the sandbox and the trace, measured now for the ratio. */
async function printBaseline(oracle, workspace, state) {
  const times = 20;
  let started = performance.now();
  for (let run = 0; run < times; run++) spawnSync('bash', ['-c', 'ls'], { cwd: workspace, stdio: 'ignore' });
  const plain = (performance.now() - started) / times;
  started = performance.now();
  for (let run = 0; run < times; run++) await oracle.trace('ls');
  const traced = (performance.now() - started) / times;
  const perRun = state.runMs / Math.max(state.allowed, 1);
  console.log(
    `[fuzz:shell] time: ${(state.elapsedMs / Math.max(state.commands, 1)).toFixed(1)} ms per command, ${perRun.toFixed(0)} ms per bash run under the oracle; ` +
      `'ls': ${plain.toFixed(1)} ms with plain bash, ${traced.toFixed(1)} ms in the sandbox under strace (${(traced / plain).toFixed(1)}×)`,
  );
}

const count = integer('count');
const seed = integer('seed');
const from = integer('from');
values.chunk ??= values.workspaces ? '10' : '100';
values['minimize-budget'] ??= values.workspaces ? '40' : '150';
const chunk = Math.max(integer('chunk'), 1);
try {
  os.setPriority(10);
} catch {}
const modules = await loadOracle();
const api = await loadPermissions();
if (values.workspaces) {
  await runWorkspaces();
  process.exit(process.exitCode ?? 0);
}
const fixture = modules.fixture.createFixtureTree();
const cleanup = () => fixture.dispose();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup();
    process.exit(128 + os.constants.signals[signal]);
  });
}
try {
  const ruleSets = [
    modules.ruleSets.ATTACKER_RULES,
    modules.ruleSets.BLANKET_RULES,
    modules.ruleSets.defaultRuleSet(modules.defaults.DEFAULT_PERSONALITY),
  ];
  const oracle = modules.oracle.createOracle(
    fixture,
    modules.port.trustedWorkspacePort(api, fixture.workspace),
    ruleSets,
  );
  if (values.known) {
    const summary = await modules.knownAttackRun.runKnownAttacks(
      oracle,
      fixture.workspace,
      values['no-record'] ? undefined : regressionsFile,
      (line) => console.log(line),
    );
    console.log(
      `[fuzz:shell] known attacks: ${summary.commands} commands, ${summary.allowed} allowed, ${summary.disagreements} disagreements, ${summary.recorded} newly recorded`,
    );
    process.exitCode = summary.disagreements > 0 ? 1 : 0;
  } else if (values.recheck) {
    const file = modules.regressions.readRegressions(regressionsFile);
    let open = 0;
    for (const entry of file.entries) {
      const verdict = await oracle.check(entry.command);
      const disagrees = verdict.findings.length > 0 || verdict.analyzerError !== undefined;
      if (disagrees) open++;
      if (disagrees !== (entry.open === true))
        console.log(`[fuzz:shell] ${disagrees ? 'regressed' : 'fixed'}: ${JSON.stringify(entry.command)}`);
      if (disagrees) entry.open = true;
      else delete entry.open;
    }
    modules.regressions.writeRegressions(regressionsFile, file);
    console.log(`[fuzz:shell] recheck: ${file.entries.length} entries, ${open} still disagree`);
  } else {
    const corpus = (name) =>
      JSON.parse(readFileSync(path.join(root, 'packages/permissions/test/fixtures', name), 'utf8'));
    const seeds = [
      ...modules.mutation.corpusCommands(corpus('bypass-corpus.json')),
      ...modules.mutation.corpusCommands(corpus('allowed-corpus.json')),
      ...modules.knownAttacks.knownAttackCommands().map((attack) => attack.command),
      ...modules.regressions.readRegressions(regressionsFile).entries.map((entry) => entry.command),
    ];
    const state = await modules.fuzzRun.fuzz({
      seed,
      count,
      from,
      oracle,
      workspace: fixture.workspace,
      seeds,
      stateFile: values.state,
      chunk,
      regressionsFile: values['no-record'] ? undefined : regressionsFile,
      minimizeBudget: integer('minimize-budget'),
      log: (line) => console.log(line),
    });
    console.log(
      `[fuzz:shell] done: seed ${state.seed}, ${state.commands} commands, ${state.allowed} allowed, ${state.disagreements} disagreements, ${state.analyzerErrors} analyzer errors, ${state.timeouts} timeouts`,
    );
    for (const [signature, times] of Object.entries(state.signatures))
      console.log(`    ${times}× ${signature}`);
    await printBaseline(oracle, fixture.workspace, state);
    process.exitCode = state.disagreements > 0 ? 1 : 0;
  }
} finally {
  cleanup();
}

/** The workspace mode: planted states crossed with the commands some rule set allows in them. */
async function runWorkspaces() {
  const jobs = Math.max(integer('jobs'), 1);
  const fixtures = Array.from({ length: jobs }, () => modules.fixture.createCleanFixtureTree());
  const fixture = fixtures[0];
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const each of fixtures) each.dispose();
      process.exit(128 + os.constants.signals[signal]);
    });
  }
  const corpus = (name) =>
    JSON.parse(readFileSync(path.join(root, 'packages/permissions/test/fixtures', name), 'utf8'));
  const mustAllow = corpus('must-allow.json');
  const ruleSets = [
    modules.ruleSets.mustAllowRuleSet(mustAllow),
    modules.ruleSets.ATTACKER_RULES,
    modules.ruleSets.BLANKET_RULES,
    modules.ruleSets.defaultRuleSet(modules.defaults.DEFAULT_PERSONALITY),
  ];
  const w = modules.workspaceOracle;
  const protectedFrom = w.workspaceProtectedPathsOf(api).from;
  const started = performance.now();
  try {
    const oracle = w.createWorkspaceOracle(fixture, w.hostSessionPorts(api, fixture), ruleSets);
    console.log(
      `[fuzz:shell --workspaces] judging packages/permissions/dist; protected paths from ${protectedFrom}; file pins of the clean fixture`,
    );
    if (values.recheck) {
      const regressions = modules.workspaceRegressions;
      const file = regressions.readWorkspaceRegressions(workspaceRegressionsFile);
      let open = 0;
      for (const [index, entry] of file.entries.entries()) {
        const { state, command } = regressions.stateOfEntry(entry, fixture, `r${index}`);
        const verdict = (await oracle.check(state, [{ command, cwd: entry.cwd }])).verdicts[0];
        const fails = (verdict?.findings.length ?? 0) > 0 || verdict?.analyzerError !== undefined;
        if (fails) open++;
        if (fails !== (entry.open === true))
          console.log(
            `[fuzz:shell --workspaces] ${fails ? 'regressed' : 'fixed'}: ${entry.kind}: ${JSON.stringify(entry.command)}`,
          );
        if (fails) entry.open = true;
        else delete entry.open;
      }
      regressions.writeWorkspaceRegressions(workspaceRegressionsFile, file);
      console.log(`[fuzz:shell --workspaces] recheck: ${file.entries.length} entries, ${open} still fail`);
      return;
    }
    const seeds = [
      ...modules.mutation.corpusCommands(corpus('bypass-corpus.json')),
      ...modules.mutation.corpusCommands(corpus('allowed-corpus.json')),
      ...modules.knownAttacks.knownAttackCommands().map((attack) => attack.command),
    ];
    const sources = {
      corpus: [...mustAllow.commands, ...modules.mutation.corpusCommands(corpus('allowed-corpus.json'))],
      generated: (index) => modules.fuzzRun.fuzzCommand(seed, index, seeds),
    };
    const moreOracles = fixtures
      .slice(1)
      .map((each) => w.createWorkspaceOracle(each, w.hostSessionPorts(api, each), ruleSets));
    const state = await modules.workspaceFuzz.fuzzWorkspaces({
      seed,
      count,
      from,
      oracle,
      moreOracles,
      sources,
      stateFile: values.state,
      chunk,
      regressionsFile: values['no-record'] ? undefined : workspaceRegressionsFile,
      minimizeBudget: integer('minimize-budget'),
      log: (line) => console.log(line),
    });
    console.log(modules.workspaceFuzz.costLine(state));
    console.log(
      `[fuzz:shell --workspaces] done: seed ${state.seed}, ${state.pairsRun} pairs run of ${state.pairsConsidered} considered in ${state.states} states, ${state.findingPairs} pairs with findings, ${state.analyzerErrors} analyzer errors, ${state.timeouts} timeouts; this process ${((performance.now() - started) / 1000).toFixed(0)} s, the whole run ${(state.elapsedMs / 1000).toFixed(0)} s, ${(state.elapsedMs / Math.max(state.pairsRun, 1)).toFixed(1)} ms per pair run`,
    );
    for (const [signature, times] of Object.entries(state.signatures).sort((a, b) => b[1] - a[1]))
      console.log(`    ${times}× ${signature}`);
    process.exitCode = state.findingPairs > 0 || state.analyzerErrors > 0 ? 1 : 0;
  } finally {
    for (const each of fixtures) each.dispose();
  }
}
