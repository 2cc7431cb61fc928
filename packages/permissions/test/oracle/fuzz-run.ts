import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { commandRandom, generateCommand } from './generator.js';
import type { Finding } from './judge.js';
import { minimizeCommand } from './minimize.js';
import { mutateCommand } from './mutation.js';
import type { Oracle, OracleVerdict } from './oracle.js';
import {
  classifyCommand,
  commandSkeleton,
  describeFinding,
  type RegressionEntry,
  readRegressions,
  writeRegressions,
} from './regressions.js';

export interface FuzzOptions {
  seed: number;
  /** Commands in the whole run; with `from`, the run covers indexes from..count-1. */
  count: number;
  from?: number;
  oracle: Oracle;
  workspace: string;
  /** Seed commands for mutation (corpus files and earlier findings). */
  seeds: readonly string[];
  /** Progress and resumption: rewritten every `chunk` commands, read back to continue. */
  stateFile?: string;
  chunk?: number;
  /** New findings are appended here (minimized, deduplicated). */
  regressionsFile?: string;
  /** Bash runs spent on shrinking each new kind of disagreement. */
  minimizeBudget?: number;
  log?: (line: string) => void;
}

export interface FuzzState {
  seed: number;
  count: number;
  next: number;
  commands: number;
  /** Commands some rule set allowed (bash ran only for these). */
  allowed: number;
  allowedByRuleSet: Record<string, number>;
  disagreements: number;
  analyzerErrors: number;
  timeouts: number;
  /** Disagreements per signature (rule set, kind, program or file class). */
  signatures: Record<string, number>;
  elapsedMs: number;
  runMs: number;
}

/** The command at `index` of a run: grammar-generated or a mutated seed, decided by the seed alone. */
export function fuzzCommand(seed: number, index: number, seeds: readonly string[]): string {
  const random = commandRandom(seed, index);
  const label = String(index);
  if (seeds.length > 0 && random.chance(0.4)) return mutateCommand(random, seeds, label);
  return generateCommand(random, label);
}

const EXAMPLES_PER_KIND = 3;

function signatureOf(finding: Finding): string {
  const subject = finding.kind.endsWith('write')
    ? finding.subject
        .replace(/.*\//, '')
        .replace(/-[A-Za-z0-9]{6}$/, '-X')
        .replace(/\d+/g, 'N')
    : finding.subject.replace(/\d+/g, 'N');
  return `${finding.ruleSet} ${finding.kind} ${subject}`;
}

function freshState(seed: number, count: number, from: number): FuzzState {
  return {
    seed,
    count,
    next: from,
    commands: 0,
    allowed: 0,
    allowedByRuleSet: {},
    disagreements: 0,
    analyzerErrors: 0,
    timeouts: 0,
    signatures: {},
    elapsedMs: 0,
    runMs: 0,
  };
}

/** Runs commands through the oracle, resumable from a state file; returns the final state. */
export async function fuzz(options: FuzzOptions): Promise<FuzzState> {
  const log = options.log ?? (() => {});
  const chunk = options.chunk ?? 100;
  let state = freshState(options.seed, options.count, options.from ?? 0);
  if (options.stateFile && existsSync(options.stateFile)) {
    const saved = JSON.parse(readFileSync(options.stateFile, 'utf8')) as FuzzState;
    if (saved.seed === options.seed) state = { ...saved, count: options.count };
  }
  log(`[fuzz:shell] seed ${state.seed}, commands ${state.next}..${state.count - 1}`);
  const known = new Set(
    options.regressionsFile
      ? readRegressions(options.regressionsFile).entries.map((entry) => commandSkeleton(entry.command))
      : [],
  );
  const examples = new Map<string, number>();
  let started = performance.now();
  while (state.next < state.count) {
    const index = state.next;
    const command = fuzzCommand(state.seed, index, options.seeds);
    const verdict = await options.oracle.check(command);
    state.commands++;
    state.next++;
    if (verdict.allowedUnder.length > 0) state.allowed++;
    for (const name of verdict.allowedUnder)
      state.allowedByRuleSet[name] = (state.allowedByRuleSet[name] ?? 0) + 1;
    if (verdict.run?.timedOut) state.timeouts++;
    state.runMs += verdict.run?.durationMs ?? 0;
    if (verdict.analyzerError) state.analyzerErrors++;
    if (verdict.findings.length > 0 || verdict.analyzerError) {
      state.disagreements++;
      await record(verdict, index, state, options, known, examples, log);
    }
    if (state.next % chunk === 0 || state.next === state.count) {
      const now = performance.now();
      state.elapsedMs += now - started;
      started = now;
      if (options.stateFile) writeFileSync(options.stateFile, `${JSON.stringify(state, null, 1)}\n`);
      log(
        `[fuzz:shell] ${state.next}/${state.count} seed ${state.seed}: ${state.commands} commands, ${state.allowed} allowed (${Object.entries(
          state.allowedByRuleSet,
        )
          .map(([name, allowed]) => `${name} ${allowed}`)
          .join(
            ', ',
          )}), ${state.disagreements} disagreements, ${(state.elapsedMs / Math.max(state.commands, 1)).toFixed(1)} ms/command`,
      );
    }
  }
  return state;
}

async function record(
  verdict: OracleVerdict,
  index: number,
  state: FuzzState,
  options: FuzzOptions,
  known: Set<string>,
  examples: Map<string, number>,
  log: (line: string) => void,
): Promise<void> {
  const signatures = verdict.findings.map(signatureOf);
  for (const signature of signatures) state.signatures[signature] = (state.signatures[signature] ?? 0) + 1;
  if (verdict.analyzerError) {
    const signature = `analyzer error ${verdict.analyzerError.split('\n')[0]}`;
    state.signatures[signature] = (state.signatures[signature] ?? 0) + 1;
    signatures.push(signature);
  }
  // The class of the command keeps one kind of finding reached through different constructs
  // apart; a few examples of each are shrunk and recorded, the rest only logged.
  const keys = signatures.map((signature) => `${signature} [${classifyCommand(verdict.command)}]`);
  const fresh = keys.filter((key) => (examples.get(key) ?? 0) < EXAMPLES_PER_KIND);
  if (fresh.length === 0) {
    log(
      `[fuzz:shell] disagreement at ${index} (already recorded: ${keys[0]}): ${JSON.stringify(verdict.command)}`,
    );
    return;
  }
  for (const key of keys) examples.set(key, (examples.get(key) ?? 0) + 1);
  let command = verdict.command;
  const target = verdict.findings[0];
  if (target && (options.minimizeBudget ?? 150) > 0) {
    command = await minimizeCommand(
      command,
      async (candidate) => {
        const again = await options.oracle.check(candidate);
        return again.findings.some(
          (finding) => finding.ruleSet === target.ruleSet && signatureOf(finding) === signatureOf(target),
        );
      },
      options.minimizeBudget,
    );
  }
  const final = command === verdict.command ? verdict : await options.oracle.check(command);
  const findings = final.findings.map((finding) => describeFinding(finding, options.workspace));
  if (final.analyzerError) findings.push(`analyzer error: ${final.analyzerError.split('\n')[0]}`);
  log(`[fuzz:shell] disagreement at ${index}: ${JSON.stringify(command)}`);
  for (const finding of findings) log(`    ${finding}`);
  if (!options.regressionsFile || known.has(commandSkeleton(command)) || findings.length === 0) return;
  known.add(commandSkeleton(command));
  const regressions = readRegressions(options.regressionsFile);
  const entry: RegressionEntry = {
    command,
    class: classifyCommand(command),
    findings,
    origin: `fuzz seed ${state.seed} command ${index}`,
    found: new Date().toISOString().slice(0, 10),
    open: true,
  };
  regressions.entries.push(entry);
  writeRegressions(options.regressionsFile, regressions);
}
