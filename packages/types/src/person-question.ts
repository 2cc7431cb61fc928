import type { PermissionPrompt, PermissionSubjectDecision } from './permissions.js';
import { boundedVisibleText, visibleText } from './visible-text.js';

/** How much of one subject (a command, a path, a URL) a question shows before cutting it, with a marker. */
const MAX_SUBJECT_CHARS = 2_000;
/** How much of a call's arguments a question shows when the call has no single subject. */
const MAX_ARGUMENT_CHARS = 400;

/** Keys whose values are never shown: a prompt may be on a shared screen or in a recording. */
const SECRET_KEY = /token|key|password|passwd|secret|authorization|credential|cookie/i;

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '***' : masked(inner)]),
  );
}

/**
 * The arguments of a call as a person sees them: JSON with the values of secret-looking keys
 * masked, every invisible character escaped, cut at a bound with a marker saying how much was
 * left out. Empty for a call without arguments.
 */
export function describeCallArguments(args: unknown, maxChars = MAX_ARGUMENT_CHARS): string {
  if (args === undefined || (typeof args === 'object' && args !== null && Object.keys(args).length === 0))
    return '';
  return boundedVisibleText(JSON.stringify(masked(args)) ?? '', maxChars);
}

/** The answers a permission question offers, in the order a person is shown them. */
export const PERMISSION_ANSWERS = ['once', 'session', 'project', 'deny'] as const;
export type PermissionAnswerChoice = (typeof PERMISSION_ANSWERS)[number];

/** Everything a person is shown when asked about a call, each piece already safe to show. */
export interface PermissionQuestion {
  /** The whole question: Quiver's labels and line breaks around escaped text from outside. */
  text: string;
  /** `Allow <tool>: <subject>?` on one line. */
  headline: string;
  /** One line per subject (subcommand, path, URL) that needs the person's approval. */
  needsApproval: string[];
  /** The rule an "always" answer adds (escaped); undefined when such an answer covers this call only. */
  alwaysRule: string | undefined;
  /** A label per answer, the "always" one naming its rule. */
  choices: ReadonlyArray<{ value: PermissionAnswerChoice; label: string }>;
  /**
   * For a call that edits a file: the change as diff lines (`-` removed, `+` added), each escaped,
   * also in `text` under "Change:". A terminal colours them; nothing else is coloured.
   */
  diff?: string[];
}

/** How many lines of an edit a question shows before cutting it, with a marker. */
const MAX_DIFF_LINES = 60;

/** The change an editing call makes, as `-`/`+` lines of escaped text; undefined for other calls. */
function editDiff(args: unknown): string[] | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  const lines = (prefix: string, value: unknown) =>
    typeof value === 'string' ? value.split('\n').map((line) => `${prefix} ${visibleText(line)}`) : [];
  const edits = Array.isArray(record.edits) ? record.edits : [record];
  let diff: string[] = [];
  for (const edit of edits) {
    if (typeof edit !== 'object' || edit === null) continue;
    const { old_string: before, new_string: after } = edit as Record<string, unknown>;
    if (typeof before === 'string' || typeof after === 'string')
      diff.push(...lines('-', before), ...lines('+', after));
  }
  if (diff.length === 0 && typeof record.content === 'string' && callSubject(args) !== undefined)
    diff = lines('+', record.content);
  if (diff.length === 0 && typeof record.patch === 'string')
    diff = record.patch
      .split('\n')
      .filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line))
      .map((line) => `${line[0]} ${visibleText(line.slice(1))}`);
  if (diff.length === 0) return undefined;
  return diff.length > MAX_DIFF_LINES
    ? [
        ...diff.slice(0, MAX_DIFF_LINES),
        `… ${diff.length - MAX_DIFF_LINES} more lines of the change not shown`,
      ]
    : diff;
}

/** The one subject a call is about, as its arguments name it: a command, a path or paths, a URL. */
function callSubject(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of ['command', 'path', 'file_path', 'url']) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  const paths = record.paths;
  if (Array.isArray(paths) && paths.length > 0 && paths.every((entry) => typeof entry === 'string'))
    return paths.join(', ');
  return undefined;
}

function subjectLine(subject: PermissionSubjectDecision): string {
  return `${boundedVisibleText(subject.subject, MAX_SUBJECT_CHARS)}: ${visibleText(subject.reason)}`;
}

/**
 * The question a person answers for a permission ask, rendered from the permission layer's
 * decision: the call's subject in full (bounded, with a marker), every subject that needs
 * approval with its reason, what the rules already allow, and the rule an "always" answer would
 * add. Every string that came from outside Quiver — the model's arguments, a tool's name, a
 * rule's text — is escaped with `visibleText`, so a bidi override, a newline or an escape
 * sequence is shown as `\u202e`, `\u000a`, `\u001b` and cannot reorder or hide what runs.
 * Terminal prompts, serve's elicitation form and `quiver rpc`'s permission relay all show this.
 */
export function renderPermissionQuestion(prompt: PermissionPrompt): PermissionQuestion {
  const tool = visibleText(prompt.toolName);
  const subject = callSubject(prompt.args);
  const shown =
    subject === undefined
      ? describeCallArguments(prompt.args)
      : boundedVisibleText(subject, MAX_SUBJECT_CHARS);
  const headline = `Allow ${tool}${shown === '' ? '' : `: ${shown}`}?`;
  const { decision } = prompt;
  const subjects = decision.subjects ?? [];
  const asked = subjects.filter((entry) => entry.behavior !== 'allow');
  const allowed = subjects.filter((entry) => entry.behavior === 'allow');
  const needsApproval =
    asked.length > 0 ? asked.map(subjectLine) : [`${shown || tool}: ${visibleText(decision.reason)}`];
  const alwaysRule = decision.suggestedRule === undefined ? undefined : visibleText(decision.suggestedRule);
  const lines = [headline, 'Needs your approval:', ...needsApproval.map((line) => `  - ${line}`)];
  if (allowed.length > 0)
    lines.push('Already allowed by the rules:', ...allowed.map((entry) => `  - ${subjectLine(entry)}`));
  lines.push(
    alwaysRule === undefined
      ? '"Always allow" applies to this call only: no rule would allow exactly this.'
      : `"Always allow" adds the rule ${alwaysRule} to the allow rules.`,
  );
  const diff = editDiff(prompt.args);
  if (diff !== undefined) lines.push('Change:', ...diff.map((line) => `    ${line}`));
  return {
    text: lines.join('\n'),
    ...(diff === undefined ? {} : { diff }),
    headline,
    needsApproval,
    alwaysRule,
    choices: [
      { value: 'once', label: 'Allow once' },
      { value: 'session', label: 'Allow for this session' },
      {
        value: 'project',
        label: alwaysRule === undefined ? 'Always allow (this call only)' : `Always allow (${alwaysRule})`,
      },
      { value: 'deny', label: 'Deny' },
    ],
  };
}
