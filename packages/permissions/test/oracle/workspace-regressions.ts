import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { CleanFixtureTree } from './fixture-tree.js';
import type { WorkspaceFinding } from './workspace-judge.js';
import type { PlantedFile, PlantedState } from './workspace-states.js';

/** One (planted state, command) pair the workspace oracle found the analyzer wrong about. */
export interface WorkspaceRegressionEntry {
  /** The state's class (see workspace-states.ts). */
  kind: string;
  /** The planted files, with the fixture's paths as `<workspace>`, `<home>`, `<outside>`, `<head>`. */
  files: PlantedFile[];
  command: string;
  cwd: string;
  /** "<rule sets> <kind> <subject>: <what happened>", paths written as above. */
  findings: string[];
  origin: string;
  found: string;
  /** Set while the analyzer still allows the pair; the test expects open entries to still fail. */
  open?: boolean;
}

export interface WorkspaceRegressionFile {
  format: string;
  entries: WorkspaceRegressionEntry[];
}

export const WORKSPACE_REGRESSION_FORMAT =
  'Every (planted workspace, command) pair the workspace oracle (packages/permissions/test/oracle, ' +
  'docs/shell-oracle.md, "Hostile workspaces") found allowed by the analyzer although bash, run under ' +
  'strace in a sandbox in a copy of the clean fixture with these files planted, ran a program the ' +
  'analyzer did not report (and the clean workspace does not run), ran a file of the workspace, or read ' +
  'a file outside the workspace or one a read deny covers. Each entry: kind (the class of state), files ' +
  '(what the model wrote: path, text or symlink, executable; <workspace>, <home>, <outside> and <head> ' +
  'stand for the fixture workspace, the sandbox HOME, the directory beside the workspace and the ' +
  "workspace's HEAD commit), command and cwd (as the terminal tool receives them), findings, origin, " +
  'found (date), open (true while the analyzer still allows the pair; the test fails when an open entry ' +
  'is fixed, so remove the flag, or when a closed one regresses). Rule sets: must-allow, attacker, ' +
  'blanket, default (see test/oracle/rule-sets.ts).';

export function readWorkspaceRegressions(file: string): WorkspaceRegressionFile {
  if (!existsSync(file)) return { format: WORKSPACE_REGRESSION_FORMAT, entries: [] };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as WorkspaceRegressionFile;
  return { format: WORKSPACE_REGRESSION_FORMAT, entries: parsed.entries ?? [] };
}

export function writeWorkspaceRegressions(file: string, regressions: WorkspaceRegressionFile): void {
  writeFileSync(
    file,
    `${JSON.stringify({ format: WORKSPACE_REGRESSION_FORMAT, entries: regressions.entries }, null, 1)}\n`,
  );
}

type Paths = Pick<CleanFixtureTree, 'workspace' | 'home' | 'outside' | 'base' | 'headCommit'>;

function tokens(fixture: Paths): Array<[string, string]> {
  return [
    [fixture.workspace, '<workspace>'],
    [fixture.home, '<home>'],
    [fixture.outside, '<outside>'],
    [fixture.base, '<base>'],
    [fixture.headCommit, '<head>'],
  ];
}

/** The fixture's paths (a fresh temporary directory each run) as tokens. */
export function tokenize(text: string, fixture: Paths): string {
  let result = text;
  for (const [value, token] of tokens(fixture)) result = result.replaceAll(value, token);
  return result;
}

export function detokenize(text: string, fixture: Paths): string {
  let result = text;
  for (const [value, token] of tokens(fixture)) result = result.replaceAll(token, value);
  return result;
}

function mapFile(file: PlantedFile, map: (text: string) => string): PlantedFile {
  const mapped: PlantedFile = { ...file };
  if (file.text !== undefined) mapped.text = map(file.text);
  if (file.symlink !== undefined) mapped.symlink = map(file.symlink);
  return mapped;
}

export function entryOf(
  state: PlantedState,
  command: string,
  cwd: string,
  findings: readonly WorkspaceFinding[],
  fixture: Paths,
  origin: string,
): WorkspaceRegressionEntry {
  return {
    kind: state.kind,
    files: state.files.map((file) => mapFile(file, (text) => tokenize(text, fixture))),
    command: tokenize(command, fixture),
    cwd,
    findings: findings.map((finding) => tokenize(describeWorkspaceFinding(finding), fixture)),
    origin,
    found: new Date().toISOString().slice(0, 10),
    open: true,
  };
}

/** The entry's state and command with this fixture's paths. */
export function stateOfEntry(
  entry: WorkspaceRegressionEntry,
  fixture: Paths,
  id: string,
): { state: PlantedState; command: string } {
  return {
    state: {
      id,
      kind: entry.kind,
      files: entry.files.map((file) => mapFile(file, (text) => detokenize(text, fixture))),
      directories: [entry.cwd],
      commands: [],
    },
    command: detokenize(entry.command, fixture),
  };
}

export function describeWorkspaceFinding(finding: WorkspaceFinding): string {
  return `${finding.ruleSets.join(',')} ${finding.kind} ${finding.subject}: ${finding.detail}`;
}

/** The program a command starts with, and git's or npm's subcommand: what a signature names. */
export function programOf(command: string): string {
  const words = command.trim().split(/\s+/);
  const first = words.find((word) => !/^[A-Za-z_]\w*=/.test(word)) ?? '';
  const index = words.indexOf(first);
  if (['git', 'npm', 'pnpm', 'yarn', 'npx', 'python3', 'make'].includes(first)) {
    const sub = words.slice(index + 1).find((word) => !word.startsWith('-'));
    return sub ? `${first} ${sub}` : first;
  }
  return first;
}

/** One bug, however many pairs show it: the rule sets, the finding's kind, the state's class and the program. */
export function workspaceSignature(finding: WorkspaceFinding, stateKind: string, command: string): string {
  return `${finding.ruleSets.join(',')} ${finding.kind} [${stateKind}] ${programOf(command)}`;
}

/**
 * What an open entry stands for in a random sample: one key per rule set, the finding's kind, the
 * class of state and the program (shrinking renames subcommands freely: `npm test` becomes `npm t`).
 */
export function toleranceKeys(
  ruleSets: readonly string[],
  kind: string,
  stateKind: string,
  command: string,
): string[] {
  const program = programOf(command).split(' ')[0] ?? '';
  return ruleSets.map((ruleSet) => `${ruleSet} ${kind} [${stateKind}] ${program}`);
}

/** The tolerance keys of a recorded entry's findings ("<rule sets> <kind> <subject>: …"). */
export function entryToleranceKeys(entry: WorkspaceRegressionEntry): string[] {
  return entry.findings.flatMap((finding) => {
    const [ruleSets = '', kind = ''] = finding.split(' ');
    return toleranceKeys(ruleSets.split(','), kind, entry.kind, entry.command);
  });
}
