import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Finding } from './judge.js';

/** One command the oracle found the analyzer wrong about, kept so that it stays fixed. */
export interface RegressionEntry {
  command: string;
  /** A rough label of the bash feature involved (see classifyCommand). */
  class: string;
  /** What bash did that the analyzer did not report, per rule set that allowed the command. */
  findings: string[];
  /** Where it came from: a fuzz seed and index, a harness test, or the seed corpus. */
  origin: string;
  found: string;
  /** Set while the analyzer still gets it wrong; the test expects open entries to still disagree. */
  open?: boolean;
}

export interface RegressionFile {
  format: string;
  entries: RegressionEntry[];
}

export const REGRESSION_FORMAT =
  'Every command the shell oracle (packages/permissions/test/oracle, docs/shell-oracle.md) ever found ' +
  'allowed by the analyzer although bash, run under strace in a sandbox, executed a program or wrote a ' +
  'file the analyzer did not report, or one a deny rule covers. Each entry: command (the exact text ' +
  'given to bash -c, run in the oracle fixture tree), class (a rough label of the construct), findings ' +
  '("<rule set> <kind> <subject>: <what bash did>", <workspace> standing for the fixture path), origin ' +
  '(fuzz seed and index, or how it was found), found (date), open (true while the analyzer still ' +
  'disagrees; the oracle test fails when an open entry is fixed, so remove the flag, or when a closed ' +
  'one regresses). Rule sets: attacker, blanket, default (see test/oracle/rule-sets.ts).';

export function readRegressions(file: string): RegressionFile {
  if (!existsSync(file)) return { format: REGRESSION_FORMAT, entries: [] };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as RegressionFile;
  return { format: REGRESSION_FORMAT, entries: parsed.entries ?? [] };
}

export function writeRegressions(file: string, regressions: RegressionFile): void {
  writeFileSync(
    file,
    `${JSON.stringify({ format: REGRESSION_FORMAT, entries: regressions.entries }, null, 1)}\n`,
  );
}

export function describeFinding(finding: Finding, workspace: string): string {
  const text = `${finding.ruleSet} ${finding.kind} ${finding.subject}: ${finding.detail}`;
  return text.replaceAll(workspace, '<workspace>').replace(/\b\d{12,}\b/g, '<n>');
}

/** A rough label of the bash feature a command leans on, for reading the corpus. */
export function classifyCommand(command: string): string {
  if (/\\[ \t\v\f\r]|[\v\f\r\u00a0]/.test(command)) return 'blank that is not a blank';
  if (/<<-?\s*\S/.test(command) && !/<<</.test(command)) return 'here-document';
  if (/\$'/.test(command)) return 'ANSI-C string';
  if (/\$\{[^}]*[#%/^,:+=?@-]/.test(command)) return 'parameter-expansion operand';
  if (/\$\(\(|\$\[|\(\(|\[\$\(|declare -i|let /.test(command)) return 'arithmetic or subscript';
  if (/(^|[\s;&|(])[A-Za-z_]\w*=\S/.test(command)) return 'environment prefix or assignment';
  if (
    /\bgit\b.*(\s-c\s|--output|--exec-path|\s-C\s|--git-dir|--work-tree|-p\s|--paginate|--ext-diff)|\bcd\s+(sub|evil)/.test(
      command,
    )
  )
    return 'read-only program that writes or executes';
  if (/\bnpm\b/.test(command)) return 'npm configuration';
  if (
    /\b(env|nice|ionice|taskset|chrt|stdbuf|setsid|flock|timeout|nohup|time|command|builtin|exec|xargs|find|script)\b/.test(
      command,
    )
  )
    return 'wrapper';
  if (/\b(eval|source|alias|hash|trap|coproc|enable)\b|(^|[;&|]\s*)\.\s/.test(command))
    return 'shell code from text';
  if (/\$\(|`|<\(|>\(/.test(command)) return 'substitution';
  if (/[?*[{]/.test(command)) return 'computed command name';
  if (/#/.test(command)) return 'comment';
  return 'other';
}

/** The shape of a command with its names and numbers blurred: shrunk finds of one bug share it. */
export function commandSkeleton(command: string): string {
  return command
    .replace(/[\w.-]+/g, 'w')
    .replace(/\s+/g, ' ')
    .trim();
}
