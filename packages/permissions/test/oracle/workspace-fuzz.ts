import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { minimizeCommand } from './minimize.js';
import { Random } from './random.js';
import type { WorkspaceFinding } from './workspace-judge.js';
import type { PairVerdict, WorkspaceOracle, WorkspacePair } from './workspace-oracle.js';
import {
  describeWorkspaceFinding,
  entryOf,
  programOf,
  readWorkspaceRegressions,
  tokenize,
  workspaceSignature,
  writeWorkspaceRegressions,
} from './workspace-regressions.js';
import { generateState, type PlantedState } from './workspace-states.js';

/** Stream numbers of the workspace mode, apart from the command fuzzer's (stream = command index). */
const STATE_STREAM = 0x5741_0000;

export interface WorkspaceCommandSources {
  /** The must-allow corpus and the allowed corpus: commands the rules are written for. */
  corpus: readonly string[];
  /** The command fuzzer's command K (grammar or mutation): what the analyzer allows besides. */
  generated: (index: number) => string;
}

/** Candidate pairs per planted state: one sandbox runs all the allowed ones. */
export const PAIRS_PER_STATE = 40;

/** State K of seed S and its candidate pairs: a function of (S, K) and the command sources alone. */
export function workspaceBatch(
  seed: number,
  index: number,
  oracle: WorkspaceOracle,
  sources: WorkspaceCommandSources,
  pairsPerState = PAIRS_PER_STATE,
): { state: PlantedState; pairs: WorkspacePair[] } {
  const random = new Random(seed, STATE_STREAM + index);
  const state = generateState(random, `s${index}`, oracle.fixture);
  const pairs: WorkspacePair[] = [];
  const seen = new Set<string>();
  for (let slot = 0; slot < pairsPerState; slot++) {
    const roll = random.next();
    const command =
      roll < 0.4 && state.commands.length > 0
        ? random.pick(state.commands)
        : roll < 0.9
          ? random.pick(sources.corpus)
          : sources.generated(index * pairsPerState + slot);
    const cwd = random.chance(0.5) ? random.pick(state.directories) : '.';
    const key = `${cwd}\0${command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({ command, cwd });
  }
  return { state, pairs };
}

export interface WorkspaceFuzzOptions {
  seed: number;
  /** Allowed pairs to run (bash runs only these); the run ends once this many ran. */
  count: number;
  /** The first planted state (batch) of a fresh run. */
  from?: number;
  oracle: WorkspaceOracle;
  /** More oracles, each with its own fixture: states run in parallel, one per oracle (`--jobs`). */
  moreOracles?: readonly WorkspaceOracle[];
  sources: WorkspaceCommandSources;
  stateFile?: string;
  /** Progress and state every `chunk` planted states. */
  chunk?: number;
  regressionsFile?: string;
  /** Oracle checks (one sandbox each) spent shrinking each new kind of finding. */
  minimizeBudget?: number;
  log?: (line: string) => void;
}

export interface WorkspaceFuzzState {
  mode: 'workspaces';
  seed: number;
  count: number;
  /** The next planted state to run. */
  next: number;
  states: number;
  pairsConsidered: number;
  pairsRun: number;
  pairsRunByRuleSet: Record<string, number>;
  /** States some rule set could not have planted (a protected or denied file), per rule set. */
  unreachable: Record<string, number>;
  findingPairs: number;
  /** States whose sandbox failed; their pairs are not counted. */
  failedStates?: number;
  analyzerErrors: number;
  timeouts: number;
  signatures: Record<string, number>;
  /** Sandbox time of planted runs per program: [runs, milliseconds]. */
  runMsByProgram: Record<string, [number, number]>;
  elapsedMs: number;
  decideMs: number;
  runMs: number;
}

function freshState(seed: number, count: number, from: number): WorkspaceFuzzState {
  return {
    mode: 'workspaces',
    seed,
    count,
    next: from,
    states: 0,
    pairsConsidered: 0,
    pairsRun: 0,
    pairsRunByRuleSet: {},
    unreachable: {},
    findingPairs: 0,
    analyzerErrors: 0,
    timeouts: 0,
    signatures: {},
    runMsByProgram: {},
    elapsedMs: 0,
    decideMs: 0,
    runMs: 0,
  };
}

export function progressLine(state: WorkspaceFuzzState): string {
  const perPair = state.elapsedMs / Math.max(state.pairsRun, 1);
  return (
    `[fuzz:shell --workspaces] seed ${state.seed}: ${state.states} states, ${state.pairsConsidered} pairs considered, ` +
    `${state.pairsRun}/${state.count} run (${Object.entries(state.pairsRunByRuleSet)
      .map(([name, run]) => `${name} ${run}`)
      .join(
        ', ',
      )}), ${state.findingPairs} pairs with findings, ${state.analyzerErrors} analyzer errors${state.failedStates ? `, ${state.failedStates} states failed` : ''}, ` +
    `${perPair.toFixed(1)} ms per pair run (decisions ${(state.decideMs / Math.max(state.pairsRun, 1)).toFixed(1)}, ` +
    `sandbox ${(state.runMs / Math.max(state.pairsRun, 1)).toFixed(1)}), wall ${(state.elapsedMs / 1000).toFixed(0)} s`
  );
}

/** Where the sandbox time goes: the programs with the most time in planted runs. */
export function costLine(state: WorkspaceFuzzState): string {
  const total = Object.values(state.runMsByProgram ?? {}).reduce((sum, [, ms]) => sum + ms, 0);
  const top = Object.entries(state.runMsByProgram ?? {})
    .sort((a, b) => b[1][1] - a[1][1])
    .slice(0, 8)
    .map(
      ([program, [runs, ms]]) =>
        `${program} ${runs}× ${(ms / runs).toFixed(0)} ms (${((100 * ms) / Math.max(total, 1)).toFixed(0)}%)`,
    );
  return `[fuzz:shell --workspaces] planted runs by program: ${top.join(', ')}`;
}

/** Runs planted states crossed with commands, resumable from a state file; returns the final state. */
export async function fuzzWorkspaces(options: WorkspaceFuzzOptions): Promise<WorkspaceFuzzState> {
  const log = options.log ?? (() => {});
  const chunk = options.chunk ?? 10;
  let state = freshState(options.seed, options.count, options.from ?? 0);
  if (options.stateFile && existsSync(options.stateFile)) {
    const saved = JSON.parse(readFileSync(options.stateFile, 'utf8')) as WorkspaceFuzzState;
    if (saved.mode === 'workspaces' && saved.seed === options.seed)
      state = { ...saved, count: options.count };
  }
  log(
    `[fuzz:shell --workspaces] seed ${state.seed}, from state ${state.next}, until ${state.count} pairs ran`,
  );
  const known = new Set<string>();
  // Shapes already recorded are not shrunk again (a resumed run, or one after another seed).
  const shrunk = new Set<string>();
  if (options.regressionsFile)
    for (const entry of readWorkspaceRegressions(options.regressionsFile).entries)
      for (const finding of entry.findings) {
        const [ruleSets = '', kind = ''] = finding.split(' ');
        known.add(`${kind} [${entry.kind}] ${entry.command}`);
        shrunk.add(shrinkKeyOf(entry.kind, entry.command, ruleSets.split(',')));
      }
  let started = performance.now();
  const oracles = [options.oracle, ...(options.moreOracles ?? [])];
  while (state.pairsRun < state.count) {
    // One state per oracle at a time, each in its own sandbox and fixture; judged in index order.
    const first = state.next;
    const batches = oracles.map((oracle, job) => ({
      oracle,
      index: first + job,
      ...workspaceBatch(state.seed, first + job, oracle, options.sources),
    }));
    // A sandbox that fails (a machine out of memory or processes) loses its state, not the run.
    const verdicts = await Promise.all(
      batches.map((batch) =>
        batch.oracle.check(batch.state, batch.pairs).catch((error: unknown) => {
          log(
            `[fuzz:shell --workspaces] state ${batch.index} could not be checked: ${error instanceof Error ? error.message : String(error)}`,
          );
          return undefined;
        }),
      ),
    );
    for (const [job, verdict] of verdicts.entries()) {
      const batch = batches[job];
      if (!batch) continue;
      if (!verdict) {
        state.next++;
        state.failedStates = (state.failedStates ?? 0) + 1;
        continue;
      }
      state.next++;
      state.states++;
      state.pairsConsidered += batch.pairs.length;
      state.pairsRun += verdict.ran;
      state.decideMs += verdict.decideMs;
      state.runMs += verdict.runMs;
      for (const name of verdict.unreachableUnder)
        state.unreachable[name] = (state.unreachable[name] ?? 0) + 1;
      for (const pair of verdict.verdicts) {
        for (const name of pair.allowedUnder)
          state.pairsRunByRuleSet[name] = (state.pairsRunByRuleSet[name] ?? 0) + 1;
        if (pair.timedOut) state.timeouts++;
        if (pair.runMs !== undefined) {
          const program = programOf(pair.command).split(' ')[0] ?? '';
          const [runs, ms] = state.runMsByProgram[program] ?? [0, 0];
          state.runMsByProgram[program] = [runs + 1, ms + pair.runMs];
        }
        if (pair.analyzerError) {
          state.analyzerErrors++;
          log(
            `[fuzz:shell --workspaces] analyzer error on ${JSON.stringify(pair.command)}: ${pair.analyzerError.split('\n')[0]}`,
          );
        }
        if (pair.findings.length === 0) continue;
        state.findingPairs++;
        await report(batch.oracle, batch.state, pair, batch.index, state, options, known, shrunk, log);
      }
      if (state.states % chunk === 0 || state.pairsRun >= state.count) {
        const now = performance.now();
        state.elapsedMs += now - started;
        started = now;
        if (options.stateFile) writeFileSync(options.stateFile, `${JSON.stringify(state, null, 1)}\n`);
        log(progressLine(state));
        if (state.states % (chunk * 10) === 0) log(costLine(state));
      }
    }
  }
  return state;
}

/** What is shrunk once per run: the class of state, the program (first word) and the rule sets. */
function shrinkKeyOf(stateKind: string, command: string, ruleSets: readonly string[]): string {
  return `${stateKind} ${programOf(command).split(' ')[0]} ${ruleSets.join(',')}`;
}

async function report(
  oracle: WorkspaceOracle,
  planted: PlantedState,
  pair: PairVerdict,
  index: number,
  state: WorkspaceFuzzState,
  options: WorkspaceFuzzOptions,
  known: Set<string>,
  shrunk: Set<string>,
  log: (line: string) => void,
): Promise<void> {
  const fixture = oracle.fixture;
  const signatures = pair.findings.map((finding) => workspaceSignature(finding, planted.kind, pair.command));
  for (const signature of signatures) state.signatures[signature] = (state.signatures[signature] ?? 0) + 1;
  const where = pair.cwd === '.' ? '' : ` (in ${pair.cwd})`;
  // Shrinking is the costly part (dozens of sandbox runs): once per class of state, program and
  // rule sets in a run; every other finding is logged as found.
  const shrinkKey = (finding: WorkspaceFinding) => shrinkKeyOf(planted.kind, pair.command, finding.ruleSets);
  const fresh = pair.findings.find((finding) => !shrunk.has(shrinkKey(finding)));
  if (!fresh) {
    log(
      `[fuzz:shell --workspaces] state ${index} (${planted.kind})${where}: ${JSON.stringify(tokenize(pair.command, fixture))}: ${pair.findings.map((finding) => `${finding.ruleSets.join(',')} ${finding.kind} ${tokenize(finding.subject, fixture)}`).join(', ')}`,
    );
    return;
  }
  for (const finding of pair.findings) shrunk.add(shrinkKey(finding));
  const minimal = await minimizePair(oracle, planted, pair, fresh, options.minimizeBudget ?? 40);
  log(
    `[fuzz:shell --workspaces] finding in state ${index} (${planted.kind})${where}: ${JSON.stringify(tokenize(pair.command, fixture))}`,
  );
  log(
    `    shrunk to ${minimal.state.files.length} planted file(s): ${minimal.state.files.map((file) => file.path).join(', ') || 'none'}; command ${JSON.stringify(tokenize(minimal.command, fixture))} in ${minimal.cwd}`,
  );
  for (const finding of minimal.findings) log(`    ${tokenize(describeWorkspaceFinding(finding), fixture)}`);
  if (!options.regressionsFile || minimal.findings.length === 0) return;
  const entry = entryOf(
    minimal.state,
    minimal.command,
    minimal.cwd,
    minimal.findings,
    fixture,
    `workspace fuzz seed ${state.seed} state ${index}`,
  );
  const keys = minimal.findings.map((finding) => `${finding.kind} [${entry.kind}] ${entry.command}`);
  if (keys.every((key) => known.has(key))) return;
  for (const key of keys) known.add(key);
  const file = readWorkspaceRegressions(options.regressionsFile);
  file.entries.push(entry);
  writeWorkspaceRegressions(options.regressionsFile, file);
}

export interface MinimalPair {
  state: PlantedState;
  command: string;
  cwd: string;
  findings: WorkspaceFinding[];
}

/**
 * Shrinks a finding: drops planted files one at a time, then characters of the command (delta
 * debugging), then tries the workspace root as the directory, while a finding of the same kind
 * under the same rule set remains. Each try is one sandbox run.
 */
export async function minimizePair(
  oracle: WorkspaceOracle,
  planted: PlantedState,
  pair: PairVerdict,
  target: WorkspaceFinding,
  budget: number,
): Promise<MinimalPair> {
  let spent = 0;
  let last: WorkspaceFinding[] = pair.findings;
  const ruleSet = target.ruleSets[0] ?? '';
  const fails = async (state: PlantedState, command: string, cwd: string): Promise<boolean> => {
    spent++;
    const verdict = (await oracle.check(state, [{ command, cwd }])).verdicts[0];
    const hit = verdict?.findings.some(
      (finding) => finding.kind === target.kind && finding.ruleSets.includes(ruleSet),
    );
    if (hit && verdict) last = verdict.findings;
    return hit === true;
  };
  let state = planted;
  let command = pair.command;
  let cwd = pair.cwd;
  for (let at = state.files.length - 1; at >= 0 && spent < budget; at--) {
    const files = state.files.filter((_, index) => index !== at);
    const candidate = { ...state, files };
    if (await fails(candidate, command, cwd)) state = candidate;
  }
  if (cwd !== '.' && spent < budget && (await fails(state, command, '.'))) cwd = '.';
  if (spent < budget)
    command = await minimizeCommand(command, (candidate) => fails(state, candidate, cwd), budget - spent);
  // The findings of the final pair, not of the last candidate tried.
  await fails(state, command, cwd);
  return { state, command, cwd, findings: last };
}
