import path from 'node:path';
import type { AnalysisReport } from './analysis-report.js';
import { shellQuote } from './judge.js';
import type { PermissionsPort } from './permissions-port.js';
import { isHarmlessWrite, isInternalWrite } from './program-roles.js';
import type { OracleRuleSet } from './rule-sets.js';
import type { TraceEvent } from './strace-log.js';
import { PAYLOAD_MARKER } from './workspace-states.js';

export type WorkspaceFindingKind =
  /** A program ran that the analyzer did not report and that the same command does not run in the clean workspace. */
  | 'unreported-exec'
  /** A file in the workspace (or outside the system directories) ran as a program, which the clean run did not. */
  | 'workspace-exec'
  /** A planted payload ran. */
  | 'payload-exec'
  /** A file or directory outside the workspace and the system directories was read. */
  | 'outside-read'
  /** A file a read deny of the rule set covers was read. */
  | 'denied-read'
  /** A file a write deny of the rule set or a protected path covers was written (the program's own internal writes excepted). */
  | 'denied-write';

export interface WorkspaceFinding {
  /** The rule sets under which the analyzer allowed the pair and the finding holds. */
  ruleSets: string[];
  kind: WorkspaceFindingKind;
  subject: string;
  detail: string;
}

/** What the same command did in the clean workspace: the programs it ran, by file. */
export interface Baseline {
  execs: Set<string>;
}

/**
 * What a program may read outside the workspace: the system directories the sandbox exposes
 * (programs, libraries, locale and time-zone data, git's and npm's system configuration) and the
 * kernel's views. Everything else (HOME, the directory beside the workspace, /tmp, /root, /work)
 * is a finding when read.
 */
const SYSTEM_PREFIXES = [
  '/usr/',
  '/lib/',
  '/lib32/',
  '/lib64/',
  '/libx32/',
  '/bin/',
  '/sbin/',
  '/etc/',
  '/proc/',
  '/dev/',
  '/sys/',
];
const SYSTEM_DIRECTORIES = new Set([
  '/usr',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/bin',
  '/sbin',
  '/etc',
  '/proc',
  '/dev',
  '/sys',
]);

/** What /proc shows of a process that is not the system's: its environment holds the secrets a personality grants. */
const PROCESS_SECRETS = /^\/proc\/(self|thread-self|\d+)\/(task\/\d+\/)?environ$/;

export function isSystemPath(file: string): boolean {
  if (PROCESS_SECRETS.test(file)) return false;
  return SYSTEM_DIRECTORIES.has(file) || SYSTEM_PREFIXES.some((prefix) => file.startsWith(prefix));
}

/** Details quote argv (a diff driver gets file contents): control characters escaped, long ones cut. */
function printable(text: string): string {
  const escaped = text.replace(
    /[\u0000-\u001f\u007f]/g,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return escaped.length > 400 ? `${escaped.slice(0, 400)}…` : escaped;
}

export function isInside(file: string, directory: string): boolean {
  return file === directory || file.startsWith(`${directory}/`);
}

/** The files the clean run executed (the harness's own bash excepted). */
export function baselineOf(events: readonly TraceEvent[]): Baseline {
  const execs = new Set<string>();
  let rootSeen = false;
  for (const event of events) {
    if (event.kind !== 'exec' || !event.ok) continue;
    if (!rootSeen) {
      rootSeen = true;
      continue;
    }
    execs.add(event.path);
  }
  return { execs };
}

export interface WorkspaceJudgeInput {
  events: readonly TraceEvent[];
  command: string;
  report: AnalysisReport;
  baseline: Baseline;
  /** Rule sets that allowed the pair. */
  ruleSets: readonly OracleRuleSet[];
  port: PermissionsPort;
  workspace: string;
}

/**
 * Judges one run of an allowed command in a planted workspace: programs that ran although the
 * analyzer did not report them and the clean run did not run them, files run from the workspace,
 * the payload, reads outside the workspace and the system directories (files the run itself
 * created excepted), and reads a rule set's read denies cover.
 */
export async function judgeWorkspaceRun(input: WorkspaceJudgeInput): Promise<WorkspaceFinding[]> {
  const { events, report, baseline, ruleSets, port, workspace } = input;
  const findings = new Map<string, WorkspaceFinding>();
  const names = ruleSets.map((ruleSet) => ruleSet.name);
  const add = (kind: WorkspaceFindingKind, subject: string, detail: string, under = names) => {
    const key = `${kind}\0${subject}`;
    if (!findings.has(key) && under.length > 0)
      findings.set(key, { ruleSets: [...under], kind, subject, detail: printable(detail) });
  };
  const programs = new Map<number, string>();
  /** The program each process runs, by name: internal writes (git's index, bash's here-documents) are the program's own. */
  const owners = new Map<number, string>();
  const created = new Set<string>();
  const writeDecisions = new Map<string, string>();
  let deniedWrites = 0;
  const decideWrite = async (ruleSet: OracleRuleSet, file: string) => {
    const key = `${ruleSet.name}\0${file}`;
    let behavior = writeDecisions.get(key);
    if (behavior === undefined) {
      behavior = (await port.decideWrite(ruleSet, file)).behavior;
      writeDecisions.set(key, behavior);
    }
    return behavior;
  };
  const readDenying = ruleSets.filter((ruleSet) =>
    (ruleSet.rules.deny ?? []).some((rule) => rule.startsWith('read_file(') || rule === 'read_file'),
  );
  const root = events[0]?.pid;
  let rootSeen = false;
  const markerInCommand = input.command.includes(PAYLOAD_MARKER);
  for (const event of events) {
    if (event.kind === 'spawn') {
      programs.set(event.child, programs.get(event.pid) ?? 'bash');
      owners.set(event.child, owners.get(event.pid) ?? 'bash');
      continue;
    }
    if (event.kind === 'write') {
      if (event.ok) {
        created.add(event.path);
        if (event.realPath) created.add(event.realPath);
      }
      const owner = owners.get(event.pid) ?? 'bash';
      const targets = event.realPath ? [event.path, event.realPath] : [event.path];
      if (!event.ok || targets.some((target) => isHarmlessWrite(target) || isInternalWrite(owner, target)))
        continue;
      const deniedUnder: string[] = [];
      for (const ruleSet of ruleSets) {
        for (const target of targets) {
          const decision = await decideWrite(ruleSet, target);
          if (decision === 'deny') {
            deniedUnder.push(ruleSet.name);
            break;
          }
        }
      }
      // A command that writes a whole protected tree (`git init`) is one finding of a few paths.
      if (deniedUnder.length > 0 && deniedWrites++ < 3)
        add(
          'denied-write',
          event.realPath ?? event.path,
          `${programs.get(event.pid) ?? 'bash'} wrote ${event.realPath ?? event.path}, which a write deny or a protected path covers`,
          deniedUnder,
        );
      continue;
    }
    if (event.kind === 'exec') {
      if (!event.ok) continue;
      const by = programs.get(event.pid) ?? 'bash';
      const argvText = shellQuote([path.posix.basename(event.path), ...event.argv.slice(1)]);
      if (event.pid === root && !rootSeen) {
        rootSeen = true;
        programs.set(event.pid, 'bash');
        owners.set(event.pid, 'bash');
        continue;
      }
      programs.set(event.pid, argvText);
      owners.set(event.pid, path.posix.basename(event.path));
      if (
        !markerInCommand &&
        (event.argv.join(' ').includes(PAYLOAD_MARKER) || event.path.includes(PAYLOAD_MARKER))
      )
        add('payload-exec', path.posix.basename(event.path), `${by} ran ${argvText}: the planted payload`);
      if (baseline.execs.has(event.path)) continue;
      const name = path.posix.basename(event.path);
      if (!isSystemPath(event.path))
        add(
          'workspace-exec',
          event.path,
          `${by} ran ${event.path} (${argvText}), which the clean workspace does not run`,
        );
      else if (!report.programs.has(name))
        add(
          'unreported-exec',
          name,
          `${by} ran ${argvText}, which the analyzer did not report and the clean workspace does not run`,
        );
      continue;
    }
    if (event.kind !== 'read' || !event.ok) continue;
    const target = event.realPath ?? event.path;
    if (created.has(target) || created.has(event.path)) continue;
    const by = programs.get(event.pid) ?? 'bash';
    if (!isInside(target, workspace)) {
      if (isSystemPath(target) || target === '/') continue;
      const what = event.directory ? 'listed the directory' : 'read';
      const shown =
        event.realPath && event.realPath !== event.path ? `${event.path} (really ${target})` : target;
      add('outside-read', target, `${by} ${what} ${shown}, outside the workspace`);
      continue;
    }
    if (readDenying.length === 0 || port.decideRead === undefined || event.directory) continue;
    const deniedUnder: string[] = [];
    for (const ruleSet of readDenying) {
      const decision = await port.decideRead(ruleSet, target);
      if (decision.behavior === 'deny') deniedUnder.push(ruleSet.name);
    }
    if (deniedUnder.length > 0)
      add('denied-read', target, `${by} read ${target}, which a read deny covers`, deniedUnder);
  }
  return [...findings.values()];
}
