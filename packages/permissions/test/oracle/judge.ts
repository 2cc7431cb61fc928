import path from 'node:path';
import { type AnalysisReport, reportsWrite } from './analysis-report.js';
import type { PermissionsPort } from './permissions-port.js';
import {
  isFailedLookup,
  isGitStateWrite,
  isHarmlessWrite,
  isInternalWrite,
  isPackageInstallWrite,
  isPackageManagerItself,
  onStandardPath,
  type ProgramRole,
  programRole,
  watchedMayRun,
} from './program-roles.js';
import type { OracleRuleSet } from './rule-sets.js';
import type { TraceEvent } from './strace-log.js';

export type FindingKind =
  | 'unreported-exec'
  | 'unexpected-path'
  | 'denied-exec'
  | 'not-allowed-exec'
  | 'unreported-write'
  | 'denied-write';

/** One way bash's run of an allowed command differed from what the analyzer promised. */
export interface Finding {
  ruleSet: string;
  kind: FindingKind;
  /** The program or file concerned. */
  subject: string;
  detail: string;
}

interface ProcessState {
  /** The program whose process tree this is, or `shell` for bash and its forks before exec. */
  owner: string;
  role: ProgramRole | 'shell';
  /** Whether the process is a package manager itself (not code it started): see isPackageManagerItself. */
  packageManager?: boolean;
}

const BLANKET = (ruleSet: OracleRuleSet) => (ruleSet.rules.allow ?? []).includes('terminal');

/**
 * Replays a trace and lists what an allowed command did that the analyzer did not report or
 * that a deny rule covers. The shell and every process it forks before exec are the shell;
 * after exec a process belongs to the program it became (see program-roles).
 */
export async function judgeTrace(
  events: readonly TraceEvent[],
  report: AnalysisReport,
  ruleSet: OracleRuleSet,
  port: PermissionsPort,
): Promise<Finding[]> {
  const findings = new Map<string, Finding>();
  const add = (kind: FindingKind, subject: string, detail: string) => {
    const key = `${kind}\0${subject}`;
    if (!findings.has(key)) findings.set(key, { ruleSet: ruleSet.name, kind, subject, detail });
  };
  const states = new Map<number, ProcessState>();
  const root = events[0]?.pid;
  let rootExecSeen = false;
  const stateOf = (pid: number): ProcessState => {
    let state = states.get(pid);
    if (!state) {
      // A process whose spawn was not traced is judged as strictly as the shell.
      state = { owner: 'shell', role: 'shell' };
      states.set(pid, state);
    }
    return state;
  };
  for (const event of events) {
    const state = stateOf(event.pid);
    if (event.kind === 'spawn') {
      states.set(event.child, event.thread ? state : { ...state });
      continue;
    }
    if (event.kind === 'exec') {
      if (event.pid === root && !rootExecSeen) {
        rootExecSeen = true;
        continue;
      }
      await judgeExec(event, state, report, ruleSet, port, add);
      continue;
    }
    if (event.kind === 'write') await judgeWrite(event, state, report, ruleSet, port, add);
  }
  return [...findings.values()];
}

type Add = (kind: FindingKind, subject: string, detail: string) => void;

async function judgeExec(
  event: Extract<TraceEvent, { kind: 'exec' }>,
  state: ProcessState,
  report: AnalysisReport,
  ruleSet: OracleRuleSet,
  port: PermissionsPort,
  add: Add,
): Promise<void> {
  const name = path.posix.basename(event.path);
  const argvText = shellQuote([name, ...event.argv.slice(1)]);
  if (event.ok) state.packageManager = isPackageManagerItself(name, event.argv);
  const by = state.role === 'shell' ? 'bash' : state.owner;
  if (state.role === 'opaque' || isFailedLookup(state.owner, event.path, event.ok)) return;
  // A missing program is an attempt that succeeds elsewhere; a directory or a file without the
  // execute bit (EACCES, ENOEXEC, …) runs nothing anywhere.
  if (!event.ok && event.error !== 'ENOENT') return;
  if (state.role === 'watched') {
    if (!watchedMayRun(state.owner, name))
      add('unreported-exec', name, `${by} ran ${argvText}, which it does not run for the fixture`);
    return;
  }
  // The file executed, not argv[0]: `exec -a ls touch` runs touch.
  const reported = report.programs.has(name);
  if (!reported) add('unreported-exec', name, `${by} ran ${argvText}, which the analyzer did not report`);
  else if (event.ok && report.bareNames.has(name) && !onStandardPath(event.path))
    add('unexpected-path', name, `${by} ran ${event.path} for ${name}, not a program on the standard PATH`);
  const denied = await port.decideCommand(denyOnly(ruleSet), argvText);
  if (denied.behavior === 'deny')
    add('denied-exec', name, `${by} ran ${argvText}, which ${denied.rule ?? 'a deny rule'} denies`);
  else if (event.ok && reported && !BLANKET(ruleSet) && !report.wrapperOnly.has(name)) {
    const alone = await port.decideCommand(ruleSet, argvText);
    if (alone.behavior !== 'allow')
      add('not-allowed-exec', argvText, `${by} ran ${argvText}, which the rules do not allow on its own`);
  }
  if (event.ok) {
    state.owner = name;
    state.role = programRole(name, event.argv);
  }
}

async function judgeWrite(
  event: Extract<TraceEvent, { kind: 'write' }>,
  state: ProcessState,
  report: AnalysisReport,
  ruleSet: OracleRuleSet,
  port: PermissionsPort,
  add: Add,
): Promise<void> {
  const names = event.realPath === undefined ? [event.path] : [event.path, event.realPath];
  if (
    names.some(
      (name) =>
        isHarmlessWrite(name) ||
        isInternalWrite(state.owner, name) ||
        (state.packageManager === true && state.role !== 'shell' && isPackageInstallWrite(name)) ||
        (state.owner === 'git' && state.role === 'opaque' && isGitStateWrite(name)),
    )
  )
    return;
  const by = state.role === 'shell' ? 'bash' : state.owner;
  const outcome = event.ok ? '' : ` (failed: ${event.error ?? 'error'})`;
  const shown = event.realPath === undefined ? event.path : `${event.path} (really ${event.realPath})`;
  if (
    (state.role === 'shell' || state.role === 'transparent') &&
    !names.some((name) => reportsWrite(report, name))
  )
    add(
      'unreported-write',
      event.path,
      `${by} wrote ${shown} with ${event.syscall}${outcome}, which the analyzer did not report`,
    );
  for (const name of names) {
    const decision = await port.decideWrite(ruleSet, name);
    if (decision.behavior === 'deny') {
      add(
        'denied-write',
        name,
        `${by} wrote ${shown}${outcome}, which ${decision.rule ?? 'a deny rule'} denies`,
      );
      return;
    }
  }
}

const denyOnlySets = new WeakMap<OracleRuleSet, OracleRuleSet>();

/** The rule set without its allows: a deny there is a deny whatever the command looked like. */
function denyOnly(ruleSet: OracleRuleSet): OracleRuleSet {
  let found = denyOnlySets.get(ruleSet);
  if (!found) {
    found = { name: `${ruleSet.name} (denies only)`, rules: { deny: ruleSet.rules.deny ?? [] } };
    denyOnlySets.set(ruleSet, found);
  }
  return found;
}

/**
 * Single-quotes every word that needs it, so that the analyzer reads back exactly this argv;
 * `=` counts, or a first word `A=b` would read back as an assignment.
 */
export function shellQuote(argv: readonly string[]): string {
  return argv
    .map((word) => (/^[\w@%+:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`))
    .join(' ');
}
